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
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const [rules, agents] = await Promise.all([listExpiryRules(), listConsoleAgents()]);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Expiry</h1>
        <p className="mt-1 max-w-3xl text-sm text-neutral-600">
          How long a call may wait for a reviewer. Past it the console expires it, in one of two modes: <strong>decline</strong> declines
          the approval through its agent with the reason &ldquo;expired: no reviewer within &hellip;&rdquo; (input requests never expire
          this way); <strong>mark</strong> only records the expiry: the agent is not told, the run stays suspended in the store, and the
          call can no longer be decided here. Either way the history records it as expired, not as anyone&rsquo;s decline, and{" "}
          <code>call.expired</code> is announced. With a warning time, <code>call.expiring</code> is announced that long before. A
          tool&rsquo;s own rule wins over its agent&rsquo;s. Without a rule, calls wait until someone decides.
        </p>
      </div>
      <ExpiryRulesTable rules={rules.map((rule) => ({ ...rule, updatedAt: rule.updatedAt.toISOString() }))} />
      <ExpiryRuleForm agents={agents.filter((agent) => agent.kind !== "workflow").map(({ id, name }) => ({ id, name }))} />
    </div>
  );
}
