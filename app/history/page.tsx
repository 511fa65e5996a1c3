import type { Metadata } from "next";
import { HistoryFilters } from "@/components/history/history-filters";
import { HistoryTable } from "@/components/history/history-table";
import { HistoryPagination } from "@/components/history/history-pagination";
import { Alert } from "@/components/ui/alert";
import { listAuditEvents } from "@/lib/audit/queries";
import { pageAccess } from "@/lib/auth/page-access";
import { getMastra } from "@/lib/mastra";
import { auditQuery } from "@/lib/search-params";

export const metadata: Metadata = { title: "Decision history · Agent approvals" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function HistoryPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = Object.fromEntries(
    Object.entries(await searchParams).flatMap(([key, value]) => (typeof value === "string" ? [[key, value]] : [])),
  );
  await pageAccess("read", `/history?${new URLSearchParams(raw)}`);
  const parsed = auditQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : auditQuery.parse({});
  const [history, mastra] = await Promise.all([listAuditEvents(query), getMastra()]);
  const agents = Object.values(mastra.listAgents()).map((agent) => ({ id: agent.id, name: agent.name }));
  const exportParams = new URLSearchParams(Object.entries(raw).filter(([key, value]) => key !== "page" && key !== "perPage" && value));

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Decision history</h1>
          <p className="mt-1 text-sm text-neutral-600">
            Every decision, what became of it, and every refused attempt. Kept after the runs themselves are gone.
          </p>
        </div>
        <a
          href={`/history/export${exportParams.size ? `?${exportParams}` : ""}`}
          className="inline-flex h-9 items-center rounded-md border border-neutral-300 bg-white px-4 text-sm font-medium shadow-sm hover:bg-neutral-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 focus-visible:ring-offset-2"
          download
        >
          Export CSV
        </a>
      </div>
      {parsed.success ? null : (
        <Alert variant="destructive" role="alert" title="Some filters were not understood and were ignored">
          {parsed.error.issues.map((issue) => issue.message).join("; ")}
        </Alert>
      )}
      <HistoryFilters values={raw} agents={agents} />
      <p className="text-sm text-neutral-600" aria-live="polite">
        {history.total === 1 ? "1 entry" : `${history.total} entries`}
      </p>
      <HistoryTable events={history.events} />
      <HistoryPagination page={history.page} pageCount={history.pageCount} params={raw} />
    </div>
  );
}
