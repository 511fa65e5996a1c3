import type { Metadata } from "next";
import { Forbidden } from "@/components/forbidden";
import { ExpiryRuleForm } from "@/components/admin/expiry-rule-form";
import { ExpiryRulesTable } from "@/components/admin/expiry-rules-table";
import { pageAccess } from "@/lib/auth/page-access";
import { listExpiryRules } from "@/lib/settings/expiry-rules";
import { listConsoleAgents } from "@/lib/queue/agents";

export const metadata: Metadata = { title: "Expiry · Agent approvals" };
export const dynamic = "force-dynamic";

export default async function ExpiryPage() {
  const access = await pageAccess("configure", "/admin/expiry");
  if (!access.allowed) return <Forbidden message={access.message} />;
  const [rules, agents] = await Promise.all([listExpiryRules(), listConsoleAgents()]);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Expiry</h1>
        <p className="mt-1 max-w-3xl text-sm text-neutral-600">
          How long an approval may wait for a reviewer. Past it, the console declines the call through its agent with the reason
          &ldquo;expired: no reviewer within &hellip;&rdquo;; the history records it as expired, not as anyone&rsquo;s decline. A
          tool&rsquo;s own rule wins over its agent&rsquo;s. Without a rule, calls wait until someone decides. Input requests never expire.
        </p>
      </div>
      <ExpiryRulesTable rules={rules.map((rule) => ({ ...rule, updatedAt: rule.updatedAt.toISOString() }))} />
      <ExpiryRuleForm agents={agents.filter((agent) => agent.kind !== "workflow").map(({ id, name }) => ({ id, name }))} />
    </div>
  );
}
