import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { HistoryFilters } from "@/components/history/history-filters";
import { HistoryTable } from "@/components/history/history-table";
import { HistoryPagination } from "@/components/history/history-pagination";
import { IgnoredParameters } from "@/components/ignored-parameters";
import { listHistory } from "@/lib/audit/history";
import { recordOutsideDecisions } from "@/lib/decisions/outside";
import { pageAccess } from "@/lib/auth/page-access";
import { can } from "@/lib/auth/roles";
import { AuditChainPanel } from "@/components/history/audit-chain-panel";
import { EvidenceExport } from "@/components/history/evidence-export";
import { getDb } from "@/lib/db/client";
import { auditChainHead } from "@/lib/audit/verify";
import { listConsoleAgents } from "@/lib/queue/agents";
import { AUDIT_PARAM_KEYS } from "@/lib/list-params";
import { sanitizeAuditQuery } from "@/lib/search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("history.title") }) };
}
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function HistoryPage({ searchParams }: { searchParams: SearchParams }) {
  const found = await searchParams;
  const raw = Object.fromEntries(
    AUDIT_PARAM_KEYS.flatMap((key) => {
      const value = found[key];
      return typeof value === "string" && value.trim() ? [[key, value]] : [];
    }),
  );
  const access = await pageAccess("read", `/history?${new URLSearchParams(raw)}`);
  // A bad parameter is left out and reported; the others still apply (the runs page's policy).
  const { query, applied, problems } = sanitizeAuditQuery(raw);
  // Up to the moment: calls decided elsewhere since the servers last looked are in the history too.
  await recordOutsideDecisions();
  const admin = can(access.actor.role, "configure");
  const [history, agents, head] = await Promise.all([
    listHistory(query),
    listConsoleAgents(),
    admin ? auditChainHead(await getDb()) : null,
  ]);
  const t = await getTranslations("history");
  const exportParams = new URLSearchParams(Object.entries(applied).filter(([key, value]) => key !== "page" && key !== "perPage" && value));

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="mt-1 text-sm text-neutral-600">{t("intro")}</p>
        </div>
        <a
          href={`/history/export${exportParams.size ? `?${exportParams}` : ""}`}
          className="inline-flex h-9 items-center rounded-md border border-neutral-300 bg-white px-4 text-sm font-medium shadow-sm hover:bg-neutral-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 focus-visible:ring-offset-2"
          download
        >
          {t("exportCsv")}
        </a>
      </div>
      {admin ? <AuditChainPanel head={head} /> : null}
      {admin ? <EvidenceExport from={daysAgo(29)} to={daysAgo(0)} /> : null}
      <IgnoredParameters problems={problems} />
      <HistoryFilters values={applied} agents={agents} />
      <p className="text-sm text-neutral-600" aria-live="polite">
        {t("count", { count: history.total })}
      </p>
      <HistoryTable entries={history.entries} />
      <HistoryPagination page={history.page} pageCount={history.pageCount} params={applied} />
    </div>
  );
}

/** A UTC day as the date inputs hold it, `days` before today. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}
