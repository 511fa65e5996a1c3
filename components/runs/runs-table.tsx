"use client";

import { useTable, type ExpandedState, type Row } from "@tanstack/react-table";
import { useCallback, useMemo, useState } from "react";
import { hasRunFilters } from "@/lib/list-params";
import type { AgentDto } from "@/lib/queue/dto";
import { IgnoredParameters } from "@/components/ignored-parameters";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getRunsTableColumns, GROUPING_COLUMNS } from "./runs-table-columns";
import { NO_THREAD, runsTableFeatures, toPendingCallRows, type PendingCallRow, type RunsTableFeatures } from "./runs-table-model";
import { RunsTablePagination } from "./runs-table-pagination";
import { RunsTableToolbar } from "./runs-table-toolbar";
import { RunsEmptyState, RunsErrorState } from "./runs-table-states";
import { ThreadGroupRow } from "./thread-group-row";
import { useRunsView, type RunsViewOptions } from "./use-runs-view";

const GROUPING = ["thread"];
/** The id TanStack Table gives the group row of a grouping value (`<columnId>:<value>`). */
const groupRowId = (threadKey: string) => `${GROUPING[0]}:${threadKey}`;

/** Fixed column widths, so the layout does not jump between pages and refreshes. */
const COLUMN_WIDTHS: Record<string, string> = { tool: "38%", kind: "17%", agent: "19%", waiting: "13%", run: "13%" };

interface RunsTableProps extends RunsViewOptions {
  agents: AgentDto[];
}

/** The pending calls, grouped by thread: renders what useRunsView holds; threads open and close here. */
export function RunsTable({ agents, ...viewOptions }: RunsTableProps) {
  const { params, query, data, problems, loading, setFilters, resetFilters, setPage, setPerPage } = useRunsView(viewOptions);
  const agentNames = useMemo(() => new Map(agents.map((agent) => [agent.id, agent.name])), [agents]);
  const rows = useMemo(() => toPendingCallRows(data?.threads ?? [], agentNames), [data, agentNames]);
  const threadsByKey = useMemo(() => new Map((data?.threads ?? []).map((thread) => [thread.threadKey || NO_THREAD, thread])), [data]);
  // Rows exist only once data does: until then nothing is marked overdue.
  const slaMinutes = data?.slaMinutes ?? Number.POSITIVE_INFINITY;

  /* ---------- the table ---------- */
  const columns = useMemo(() => getRunsTableColumns({ slaMinutes }), [slaMinutes]);
  // Threads start expanded (new ones too); the reviewer collapses the ones they are done looking at.
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const expanded = useMemo<ExpandedState>(() => {
    if (collapsed.size === 0) return true;
    const groupIds = new Set(rows.map((row) => groupRowId(row.threadKey)));
    return Object.fromEntries([...groupIds].filter((id) => !collapsed.has(id)).map((id) => [id, true]));
  }, [rows, collapsed]);
  const table = useTable({
    features: runsTableFeatures,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    state: { grouping: GROUPING, expanded },
    groupedColumnMode: false,
  });
  const toggleThread = useCallback((rowId: string) => {
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(rowId)) next.delete(rowId);
      else next.add(rowId);
      return next;
    });
  }, []);

  const headers = (table.getHeaderGroups()[0]?.headers ?? []).filter((header) => !GROUPING_COLUMNS.has(header.column.id));
  const groups = groupSegments(table.getRowModel().rows);
  const filtered = hasRunFilters(params);

  return (
    <div className="flex flex-col gap-4">
      <IgnoredParameters problems={problems} />

      <RunsTableToolbar filters={params} agents={agents} slaMinutes={data?.slaMinutes} onFilterChange={setFilters} onReset={resetFilters} />

      {query.isError ? (
        <RunsErrorState message={query.error.message} retrying={query.isFetching} onRetry={() => void query.refetch()} />
      ) : null}

      <Card className="relative overflow-hidden">
        <div aria-live="polite" className="pointer-events-none absolute right-3 top-2 z-10">
          {loading ? (
            <span className="rounded-md border border-neutral-200 bg-white/90 px-2 py-0.5 text-xs text-neutral-600 shadow-sm">
              Loading…
            </span>
          ) : null}
        </div>
        {data && rows.length === 0 && !loading ? (
          <RunsEmptyState filtered={filtered} onReset={resetFilters} />
        ) : !data && !query.isError ? (
          <p className="px-4 py-10 text-center text-sm text-neutral-500" aria-busy="true">
            Loading…
          </p>
        ) : data ? (
          <Table
            aria-busy={loading}
            className={loading ? "min-w-[44rem] table-fixed opacity-60 transition-opacity" : "min-w-[44rem] table-fixed transition-opacity"}
          >
            <TableCaption>Pending tool calls, grouped by thread</TableCaption>
            <TableHeader>
              <TableRow>
                {headers.map((header) => (
                  <TableHead key={header.id} scope="col" style={{ width: COLUMN_WIDTHS[header.column.id] }}>
                    <table.FlexRender header={header} />
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            {groups.map(({ group, calls }) => (
              <TableBody key={group.id}>
                <ThreadGroupRow
                  thread={threadsByKey.get(String(group.getGroupingValue(GROUPING[0]!)))!}
                  calls={group.getLeafRows().map((leaf) => leaf.original)}
                  expanded={group.getIsExpanded()}
                  onToggle={() => toggleThread(group.id)}
                  colSpan={headers.length}
                />
                {calls.map((row) => (
                  <TableRow key={row.id} className="hover:bg-neutral-50">
                    {row
                      .getAllCells()
                      .filter((cell) => !GROUPING_COLUMNS.has(cell.column.id))
                      .map((cell, index) => (
                        <TableCell key={cell.id} className={index === 0 ? "pl-10" : undefined}>
                          <table.FlexRender cell={cell} />
                        </TableCell>
                      ))}
                  </TableRow>
                ))}
              </TableBody>
            ))}
          </Table>
        ) : null}
      </Card>

      {data ? (
        <RunsTablePagination
          page={data.page}
          pageCount={data.pageCount}
          perPage={data.perPage}
          threadTotal={data.threadTotal}
          callTotal={data.callTotal}
          onPageChange={(page) => setPage(page)}
          onPerPageChange={setPerPage}
        />
      ) : null}
    </div>
  );
}

type CallTableRow = Row<RunsTableFeatures, PendingCallRow>;

/** Splits the flat, expanded row model into one segment per thread group. */
function groupSegments(rows: CallTableRow[]) {
  const segments: Array<{ group: CallTableRow; calls: CallTableRow[] }> = [];
  for (const row of rows) {
    if (row.getIsGrouped()) segments.push({ group: row, calls: [] });
    else segments.at(-1)?.calls.push(row);
  }
  return segments;
}
