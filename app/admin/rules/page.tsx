import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { RulesManager } from "@/components/admin/rules-manager";
import { SuggestedRules } from "@/components/admin/suggested-rules";
import { pageAccess } from "@/lib/auth/page-access";
import { getDb } from "@/lib/db/client";
import { listRules, listRuleVersions } from "@/lib/rules/store";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("nav.rules") }) };
}
export const dynamic = "force-dynamic";

export default async function RulesPage() {
  const access = await pageAccess("configure", "/admin/rules");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const t = await getTranslations();
  const db = await getDb();
  const rules = await listRules(db);
  const versions = Object.fromEntries(
    await Promise.all(rules.map(async (rule) => [rule.id, await listRuleVersions(db, rule.id)] as const)),
  );
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("nav.rules")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-neutral-600">{t("admin.rules.intro")}</p>
        <p className="mt-1 text-sm">
          <a href="#suggested-rules" className="underline">
            {t("admin.rules.suggested.jump")}
          </a>
        </p>
      </div>
      <RulesManager rules={rules} versions={versions} now={new Date().toISOString()} />
      <SuggestedRules />
    </div>
  );
}
