import type { Metadata } from "next";
import { Forbidden } from "@/components/forbidden";
import { RulesManager } from "@/components/admin/rules-manager";
import { pageAccess } from "@/lib/auth/page-access";
import { getDb } from "@/lib/db/client";
import { listRules, listRuleVersions } from "@/lib/rules/store";

export const metadata: Metadata = { title: "Rules · Agent approvals" };
export const dynamic = "force-dynamic";

export default async function RulesPage() {
  const access = await pageAccess("configure", "/admin/rules");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const db = await getDb();
  const rules = await listRules(db);
  const versions = Object.fromEntries(
    await Promise.all(rules.map(async (rule) => [rule.id, await listRuleVersions(db, rule.id)] as const)),
  );
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Rules</h1>
        <p className="mt-1 max-w-3xl text-sm text-neutral-600">
          Rules decide for you when a call starts waiting: the first enabled rule that matches approves it, declines it (the reason goes to
          the model) or leaves it to a person. A rule&rsquo;s decision is recorded like a person&rsquo;s, as &ldquo;rule &lsquo;name&rsquo;
          (version N)&rdquo;, and a call is evaluated once. Run a dry run before saving to see what a rule would do to the calls waiting
          now. Enabling a rule acts on new calls only, unless you ask to apply it to the calls already waiting.
        </p>
      </div>
      <RulesManager rules={rules} versions={versions} />
    </div>
  );
}
