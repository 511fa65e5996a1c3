import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { ExpiryRuleForm } from "@/components/admin/expiry-rule-form";
import { ExpiryRulesTable } from "@/components/admin/expiry-rules-table";
import { pageAccess } from "@/lib/auth/page-access";
import { listExpiryRules } from "@/lib/settings/expiry-rules";
import { listConsoleAgents } from "@/lib/queue/agents";
import type { EventType } from "@/lib/events/types";

/** The events an expiry announces, named in the intro as code. */
const EXPIRED: EventType = "call.expired";
const EXPIRING: EventType = "call.expiring";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("nav.expiry") }) };
}
export const dynamic = "force-dynamic";

export default async function ExpiryPage() {
  const access = await pageAccess("configure", "/admin/expiry");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const [rules, agents] = await Promise.all([listExpiryRules(), listConsoleAgents()]);
  const t = await getTranslations();
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("nav.expiry")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-neutral-600">
          {t.rich("admin.expiry.intro", {
            b: (chunks) => <strong>{chunks}</strong>,
            expired: () => <code>{EXPIRED}</code>,
            expiring: () => <code>{EXPIRING}</code>,
          })}
        </p>
      </div>
      <ExpiryRulesTable rules={rules.map((rule) => ({ ...rule, updatedAt: rule.updatedAt.toISOString() }))} />
      <ExpiryRuleForm agents={agents.filter((agent) => agent.kind !== "workflow").map(({ id, name }) => ({ id, name }))} />
    </div>
  );
}
