"use client";

import { useTable, type ExpandedState, type Row } from "@tanstack/react-table";
import { useTranslations } from "next-intl";
import { useCallback, useMemo, useState } from "react";
import type { ThreadDto } from "@/lib/queue/dto";
import { hasRunFilters } from "@/lib/list-params";
import type { AgentDto } from "@/lib/queue/dto";
import type { Risk } from "@/lib/risk";
import { IgnoredParameters } from "@/components/ignored-parameters";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getRunsTableColumns, GROUPING_COLUMNS } from "./runs-table-columns";
import {
  isOverdue,
  NO_THREAD,
  targetMinutesOf,
  runsTableFeatures,
  toPendingCallRows,
  type PendingCallRow,
  type RunsTableFeatures,
} from "./runs-table-model";
import { RunsTablePagination } from "./runs-table-pagination";
import { RunsTableToolbar } from "./runs-table-toolbar";
import { RunsEmptyState, RunsErrorState } from "./runs-table-states";
import { ThreadGroupRow } from "./thread-group-row";
import { useRunsView, type RunsViewOptions } from "./use-runs-view";
import { CallRow } from "./call-row";
import type { Settled } from "./call-detail";
import { SelectCheckbox } from "./select-checkbox";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { BulkBar } from "./bulk-bar";
import { useBulkDecision } from "./use-bulk-decision";
import { useLingering } from "./use-lingering";
import { SERVER_RENDERED_CALLS, useHydrated, withinBudget } from "./deferred-rows";
import { useQueueFocus } from "./use-queue-focus";
import { BULK_LIMIT, selectionState, useLeftOutText, useSelection } from "./use-selection";

const GROUPING = ["thread"];
/** The id TanStack Table gives the group row of a grouping value (`<columnId>:<value>`). */
const groupRowId = (threadKey: string) => `${GROUPING[0]}:${threadKey}`;

/** Fixed column widths, so the layout does not jump between pages and refreshes. */
const COLUMN_WIDTHS: Record<string, string> = { tool: "30%", kind: "16%", risk: "9%", agent: "16%", waiting: "13%", run: "10%" };
/** Below 768 px a call is a card: the tool (and request) on its own line, kind, agent and wait after it; the run id is in the tool's link. */
const PHONE_CELL: Record<string, string> = {
  tool: "max-md:basis-full max-md:min-w-0 max-md:px-1 max-md:py-0.5",
  kind: "max-md:px-1 max-md:py-0.5",
  risk: "max-md:px-1 max-md:py-0.5",
  agent: "max-md:px-1 max-md:py-0.5",
  waiting: "max-md:px-1 max-md:py-0.5",
  run: "max-md:hidden",
};
const NO_THREADS: ThreadDto[] = [];

interface RunsTableProps extends RunsViewOptions {
  agents: AgentDto[];
  /** Whether the signed-in role may decide (the server checks anyway): no selection or decision UI otherwise. */
  canDecide?: boolean;
}

/** Every call of a thread's group, shown or not yet. */
const leafCalls = (group: { getLeafRows: () => Array<{ original: PendingCallRow }> }) => group.getLeafRows().map((leaf) => leaf.original);

function focusFirstFilter() {
  document.querySelector<HTMLInputElement>('[role="search"] input')?.focus();
}

/** The pending calls, grouped by thread: renders what useRunsView holds; threads open and close here. */
export function RunsTable({ agents, canDecide = true, ...viewOptions }: RunsTableProps) {
  const t = useTranslations("queue");
  const leftOutText = useLeftOutText();
  const { params, query, data, problems, loading, setFilters, resetFilters, setPage, setPerPage } = useRunsView(viewOptions);
  const agentNames = useMemo(() => new Map(agents.map((agent) => [agent.id, agent.name])), [agents]);
  // Rows exist only once data does: until then nothing is marked overdue.
  const slaMinutes = data?.slaMinutes ?? Number.POSITIVE_INFINITY;
  const riskTargets = data?.riskTargets;
  const targets = useMemo(() => ({ slaMinutes, riskTargets }), [slaMinutes, riskTargets]);
  const overdue = useCallback(
    (suspendedAt: string, risk?: Risk) => isOverdue(suspendedAt, targetMinutesOf(risk, targets), Date.now()),
    [targets],
  );
  // Calls decided here stay in place a moment (their outcome in the row), then leave.
  const { shownThreads, hold, lingeringIds, notes, note, letLeave } = useLingering(data?.threads ?? NO_THREADS, overdue);
  const unnamedTool = t("unnamedTool");
  const rows = useMemo(() => toPendingCallRows(shownThreads, agentNames, unnamedTool), [shownThreads, agentNames, unnamedTool]);
  const threadsByKey = useMemo(() => new Map(shownThreads.map((thread) => [thread.threadKey || NO_THREAD, thread])), [shownThreads]);

  /* ---------- the table ---------- */
  const requestLabel = t("request");
  const columns = useMemo(() => getRunsTableColumns(targets, requestLabel), [targets, requestLabel]);
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
  const hydrated = useHydrated();
  const rendered = withinBudget(groups, hydrated ? Number.POSITIVE_INFINITY : SERVER_RENDERED_CALLS);
  const filtered = hasRunFilters(params);
  const colSpan = headers.length + 1;

  /* ---------- the keyboard, the current call, selection ---------- */
  const selection = useSelection(rows);
  const [helpOpen, setHelpOpen] = useState(false);
  const order = groups.flatMap(({ calls }) => calls.map((call) => call.original));
  const focus = useQueueFocus({
    order,
    canDecide,
    leaving: lingeringIds,
    toggleSelect: selection.toggle,
    focusFilter: focusFirstFilter,
    showHelp: () => setHelpOpen(true),
  });
  const settle = (call: PendingCallRow, settled: Settled) => {
    const runFinished = "outcome" in settled && settled.outcome.runState === "completed";
    letLeave([{ rowId: call.id, runId: call.runId, runFinished }]);
    focus.moveOnFrom(call.id);
  };
  const bulk = useBulkDecision({ note, hold, letLeave, clearSelection: selection.clear });
  const selectableRows = rows.filter((row) => !lingeringIds.has(row.id));

  return (
    <div className="flex flex-col gap-4">
      <IgnoredParameters problems={problems} />

      <RunsTableToolbar filters={params} agents={agents} slaMinutes={data?.slaMinutes} onFilterChange={setFilters} onReset={resetFilters} />
      {/* Shortcuts need a keyboard: not shown below 768 px, nor on a touch screen. */}
      <div className="-mt-1 flex flex-wrap items-center gap-3 text-xs text-neutral-500 max-md:hidden pointer-coarse:hidden">
        <Button variant="outline" size="xs" onClick={() => setHelpOpen(true)} aria-keyshortcuts="?" aria-haspopup="dialog">
          {t("shortcutsButton")}
        </Button>
        <span>{t("shortcutsHint", { canDecide: canDecide ? "yes" : "no" })}</span>
      </div>
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />

      {query.isError ? <RunsErrorState error={query.error} retrying={query.isFetching} onRetry={() => void query.refetch()} /> : null}

      <Card className="relative overflow-hidden">
        <div aria-live="polite" className="pointer-events-none absolute right-3 top-2 z-10">
          {loading ? (
            <span className="rounded-md border border-neutral-200 bg-white/90 px-2 py-0.5 text-xs text-neutral-600 shadow-sm">
              {t("loading")}
            </span>
          ) : null}
        </div>
        {data && rows.length === 0 && !loading ? (
          <RunsEmptyState filtered={filtered} onReset={resetFilters} />
        ) : !data && !query.isError ? (
          <p className="px-4 py-10 text-center text-sm text-neutral-500" aria-busy="true">
            {t("loading")}
          </p>
        ) : data ? (
          <Table
            aria-busy={loading}
            className={cn("table-fixed transition-opacity md:min-w-[44rem] max-md:block", loading && "opacity-60")}
          >
            <TableCaption>{t("caption")}</TableCaption>
            <TableHeader className="max-md:sr-only">
              <TableRow>
                <TableHead scope="col" className="pl-3 pr-0" style={{ width: "4.5rem" }}>
                  {canDecide ? (
                    <SelectCheckbox
                      state={selectionState(selectableRows, selection.selected)}
                      label={t("selectPage")}
                      title={t("selectPageTitle", { limit: BULK_LIMIT })}
                      onChange={(checked) => selection.setMany(selectableRows, checked)}
                    />
                  ) : (
                    <span className="sr-only">{t("open")}</span>
                  )}
                </TableHead>
                {headers.map((header) => (
                  <TableHead key={header.id} scope="col" style={{ width: COLUMN_WIDTHS[header.column.id] }}>
                    <table.FlexRender header={header} />
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            {rendered.map(({ group, calls, deferred }) => (
              <TableBody key={group.id} className="max-md:block">
                <ThreadGroupRow
                  thread={threadsByKey.get(String(group.getGroupingValue(GROUPING[0]!)))!}
                  calls={leafCalls(group)}
                  expanded={group.getIsExpanded()}
                  onToggle={() => toggleThread(group.id)}
                  colSpan={colSpan}
                  selection={canDecide ? selectionState(leafCalls(group), selection.selected) : undefined}
                  onSelect={(checked) => selection.setMany(leafCalls(group), checked)}
                />
                {calls.map((row) => (
                  <CallRow
                    key={row.id}
                    call={row.original}
                    colSpan={colSpan}
                    active={focus.active === row.id}
                    open={focus.open.has(row.id)}
                    leaving={lingeringIds.has(row.id)}
                    canDecide={canDecide}
                    selected={selection.selected.has(row.id)}
                    note={notes.get(row.id)}
                    intent={focus.intent?.rowId === row.id ? focus.intent.what : null}
                    onActivate={() => focus.setActive(row.id)}
                    onToggleOpen={() => focus.toggleOpen(row.id)}
                    onSelect={(checked) => selection.setMany([row.original], checked)}
                    onIntentDone={focus.clearIntent}
                    onSettled={(settled) => settle(row.original, settled)}
                    onSent={() => hold([row.id])}
                    cells={row
                      .getAllCells()
                      .filter((cell) => !GROUPING_COLUMNS.has(cell.column.id))
                      // The space ends each cell's words, taking no room: "Critical Refunds", not "CriticalRefunds".
                      .map((cell) => (
                        <TableCell key={cell.id} className={PHONE_CELL[cell.column.id]}>
                          <table.FlexRender cell={cell} />{" "}
                        </TableCell>
                      ))}
                  />
                ))}
                {deferred > 0 ? (
                  <tr className="max-md:block">
                    <td colSpan={colSpan} className="py-2 pl-16 text-sm text-neutral-500 max-md:block max-md:pl-3" aria-busy="true">
                      {t("deferred", { count: deferred })}
                    </td>
                  </tr>
                ) : null}
              </TableBody>
            ))}
          </Table>
        ) : null}
      </Card>

      {canDecide ? (
        <BulkBar
          selected={selection.selected}
          notice={leftOutText(selection.leftOut)}
          summary={bulk.summary}
          busy={bulk.busy}
          onClear={selection.clear}
          onDecide={(action, calls, reason) => void bulk.decide(action, calls, reason)}
        />
      ) : null}

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
