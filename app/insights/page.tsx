import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { IgnoredParameters } from "@/components/ignored-parameters";
import { CallsPanel } from "@/components/insights/calls-panel";
import { DaysPanel } from "@/components/insights/days-panel";
import { InsightsFilters } from "@/components/insights/insights-filters";
import { RatesPanel } from "@/components/insights/rates-panel";
import { ReviewersPanel } from "@/components/insights/reviewers-panel";
import { TimePanel } from "@/components/insights/time-panel";
import { Alert } from "@/components/ui/alert";
import { readInsightsOperation } from "@/lib/actions/insights-operations";
import { runOperation } from "@/lib/actions/operation";
import { pageAccess } from "@/lib/auth/page-access";
import { INSIGHTS_PARAM_KEYS } from "@/lib/insights/params";
import { sanitizeInsightsQuery } from "@/lib/insights/validations";
import { listConsoleAgents } from "@/lib/queue/agents";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("insights.title") }) };
}
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function InsightsPage({ searchParams }: { searchParams: SearchParams }) {
  const found = await searchParams;
  const raw = Object.fromEntries(
    INSIGHTS_PARAM_KEYS.flatMap((key) => {
      const value = found[key];
      return typeof value === "string" && value.trim() ? [[key, value]] : [];
    }),
  );
  const access = await pageAccess("read", `/insights?${new URLSearchParams(raw)}`);
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  // A bad parameter is left out and reported; the others still apply (the lists' policy).
  const { applied, problems } = sanitizeInsightsQuery(raw);
  // The API's own operation: its permission, and support's view without reviewer names, in one place.
  const [result, agents] = await Promise.all([runOperation(readInsightsOperation, access.actor, applied), listConsoleAgents()]);
  const t = await getTranslations("insights");
  if (!result.ok) {
    return (
      <Alert variant="destructive" role="alert" title={t("failed")}>
        {result.error.message}
      </Alert>
    );
  }
  const insights = result.data;
  const agentNames = new Map(agents.map((agent) => [agent.id, agent.name]));
  const csv = new URLSearchParams({ format: "csv", ...applied });
  const unlinked = Boolean(insights.filters.resourcePrefix || insights.filters.risk);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="mt-1 max-w-3xl text-sm text-neutral-600">{t("intro")}</p>
        </div>
        <a
          href={`/api/insights?${csv}`}
          className="inline-flex h-9 items-center rounded-md border border-neutral-300 bg-white px-4 text-sm font-medium shadow-sm hover:bg-neutral-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 focus-visible:ring-offset-2"
          download
        >
          {t("downloadCsv")}
        </a>
      </div>
      <IgnoredParameters problems={problems} />
      <InsightsFilters values={applied} agents={agents} />
      <p className="text-sm text-neutral-600" data-testid="insights-period">
        {t("period", { firstDay: insights.period.firstDay, lastDay: insights.period.lastDay, timeZone: insights.period.timeZone })}{" "}
        {unlinked ? t("unlinked") : t("linked")}
      </p>
      <CallsPanel insights={insights} />
      <DaysPanel insights={insights} />
      <RatesPanel insights={insights} agentNames={agentNames} />
      <TimePanel insights={insights} agentNames={agentNames} />
      <ReviewersPanel insights={insights} />
    </div>
  );
}
