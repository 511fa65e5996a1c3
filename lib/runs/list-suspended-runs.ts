/**
 * The console's listing of suspended agent runs across every agent: the contract's
 * `listSuspendedRuns` filters plus `agentId`, filtered, counted and paged in SQL on the columns
 * the store extracts when a snapshot is written (no snapshot JSON is read).
 *
 * Built to stay fast at 100k+ runs: every filter + the order columns are in one index per
 * filter (prisma/{sqlite,postgres}/schema.prisma), so a page is read in index order and a filtered COUNT is
 * index-only and proportional to the matches; with no filter but agentId, the total comes from
 * suspended_run_counts and a deep page starts from its hour in suspended_run_hours, and a creation
 * window of whole hours is counted from those hours, all kept exact by triggers. `npm run bench`
 * measures it (bench/results.md).
 */
import { empty, join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { z } from "zod";
import { getDb, databaseUrlFromEnv } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Db } from "../db/client.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import { queryStatement, runShapeOf, type AgentRunToolCall, type RunShape } from "@agent-approvals/mastra-store";
import { databaseProvider } from "../db/database-url.ts";
import { createdWithin, wholeUnits } from "./thread-sql.ts";
import { listSuspendedRunsOptions, type ListSuspendedRunsOptions } from "./validations.ts";

/** The contract's AgentRun, plus the agent that owns it. */
export interface ConsoleRun {
  runId: string;
  status: "suspended";
  /** Not in the contract: which kind of run waits (agent, durable agent, workflow). */
  shape: RunShape;
  agentId: string;
  threadId?: string;
  resourceId?: string;
  suspendedAt: Date;
  toolCalls: AgentRunToolCall[];
  /** Not in the contract: one line of the run's last user message, where it has one (the store keeps it). */
  requestExcerpt?: string;
}

export interface ListSuspendedRunsResult {
  runs: ConsoleRun[];
  /** Matching runs before pagination. */
  total: number;
}

export class InvalidListOptionsError extends AppError {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(
      "invalid_input",
      `Invalid listing options: ${issues.map((issue) => `${issue.path.join(".") || "options"}: ${issue.message}`).join("; ")}`,
    );
  }
}

export async function listSuspendedRuns(
  options: ListSuspendedRunsOptions = {},
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<ListSuspendedRunsResult> {
  const parsed = listSuspendedRunsOptions.safeParse(options);
  if (!parsed.success) throw new InvalidListOptionsError(parsed.error.issues);
  const { agentId, threadId, resourceId, fromDate, toDate, perPage, page } = parsed.data;

  const where: Prisma.WorkflowSnapshotWhereInput = {
    status: "suspended",
    // Only agent-loop rows carry an owner: that is what makes a row an agent run.
    agentId: agentId ?? { not: null },
    threadId,
    resourceId,
    createdAt: fromDate || toDate ? { gte: fromDate, lte: toDate } : undefined,
  };
  const paginate = perPage !== undefined && page !== undefined;
  const db = await getDb(databaseUrl);
  const skip = paginate ? page * perPage : 0;
  // With no filter but agentId, trigger-kept counts give the total and where a deep page starts;
  // any other filter narrows the runs in its index first.
  const onlyAgentFilter = !threadId && !resourceId && !fromDate && !toDate;
  if (agentId && (threadId || resourceId) && databaseProvider(databaseUrl) === "sqlite") {
    return listAgentRunsOfThreadOrResource(db, parsed.data, paginate ? { skip, take: perPage! } : undefined);
  }
  const [rows, total] = await Promise.all([
    !paginate
      ? db.workflowSnapshot.findMany({ where, select: LISTED, orderBy: LISTING_ORDER })
      : onlyAgentFilter && skip >= HOUR_LOOKUP_OFFSET
        ? findPageFromItsHour(db, where, agentId, skip, perPage!)
        : findPage(db, where, skip, perPage!),
    countMatches(db, where, { agentId, onlyAgentFilter, window: !threadId && !resourceId ? wholeHours(fromDate, toDate) : null }),
  ]);
  return {
    total,
    runs: rows.map(toConsoleRun),
  };
}

export type ListedRow = {
  workflowName: string;
  runId: string;
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
  updatedAt: Date | string;
  toolCalls: string | null;
  requestExcerpt: string | null;
};

/** The columns of a ListedRow in raw SQL, optionally of the table aliased `w`. */
export function listedColumns(table?: "w"): Sql {
  const column = (name: string, alias: string) => raw(`${table ? `"${table}".` : ""}"${name}" AS "${alias}"`);
  return join(
    [
      column("workflow_name", "workflowName"),
      column("run_id", "runId"),
      column("agent_id", "agentId"),
      column("thread_id", "threadId"),
      column("resource_id", "resourceId"),
      column("updated_at", "updatedAt"),
      column("tool_calls", "toolCalls"),
      column("request_excerpt", "requestExcerpt"),
    ],
    ", ",
  );
}

/** A stored suspended agent-loop row as the contract's AgentRun (plus its agent). */
export function toConsoleRun(row: ListedRow): ConsoleRun {
  return {
    runId: row.runId,
    status: "suspended",
    shape: runShapeOf(row.workflowName),
    agentId: row.agentId!,
    threadId: row.threadId ?? undefined,
    resourceId: row.resourceId ?? undefined,
    // A raw query on SQLite may return the stored text.
    suspendedAt: new Date(row.updatedAt),
    toolCalls: row.toolCalls ? (JSON.parse(row.toolCalls) as AgentRunToolCall[]) : [],
    ...(row.requestExcerpt ? { requestExcerpt: row.requestExcerpt } : {}),
  };
}

/** The columns a listed run is made of (never the snapshot JSON). */
export const LISTED = {
  workflowName: true,
  runId: true,
  agentId: true,
  threadId: true,
  resourceId: true,
  createdAt: true,
  updatedAt: true,
  toolCalls: true,
  requestExcerpt: true,
} as const;
const LISTING_ORDER: Prisma.WorkflowSnapshotOrderByWithRelationInput[] = [{ createdAt: "desc" }, { runId: "desc" }];

/** From this offset on, a page is found in the index first and its rows read afterwards. */
const DEFERRED_PAGE_OFFSET = 1_000;
/**
 * From this offset on, a whole-backlog or one-agent page starts from its hour: finding the hour
 * costs ~1.5 ms whatever the offset, walking the index ~0.2 ms per 1,000 runs skipped (bench, 2 cores).
 */
const HOUR_LOOKUP_OFFSET = 5_000;
const HOUR_MS = 3_600_000;

function findPage(db: Db, where: Prisma.WorkflowSnapshotWhereInput, skip: number, take: number) {
  if (skip >= DEFERRED_PAGE_OFFSET) return findDeepPage(db, where, skip, take);
  return db.workflowSnapshot.findMany({ where, select: LISTED, orderBy: LISTING_ORDER, skip, take });
}

/**
 * A deep page of the whole backlog (or of one agent's) without walking every run before it. The
 * per-hour counts (suspended_run_hours, kept exact by triggers) give the hour the page starts in
 * and how many newer runs come before that hour; the page is then read from that hour on. The cost
 * is the number of hours with waiting runs plus at most one hour's runs, whatever the page number.
 */
async function findPageFromItsHour(
  db: Db,
  where: Prisma.WorkflowSnapshotWhereInput,
  agentId: string | undefined,
  skip: number,
  take: number,
) {
  // A running sum, newest hour first, in the database: one row comes back, not one per hour.
  // The same SQL on SQLite and PostgreSQL.
  const [start] = await db.$queryRaw<Array<{ hour: Date | string; newer: number | bigint | string }>>`
    SELECT "hour", "newer" FROM (
      SELECT "hour", "runs", SUM("runs") OVER (ORDER BY "hour" DESC ROWS UNBOUNDED PRECEDING) - "runs" AS "newer"
      FROM (
        SELECT "hour", SUM("runs") AS "runs" FROM "suspended_run_hours"
        ${agentId ? sql`WHERE "agent_id" = ${agentId}` : empty}
        GROUP BY "hour"
      ) AS "per_hour"
    ) AS "running"
    WHERE "newer" + "runs" > ${skip}
    ORDER BY "hour" DESC LIMIT 1`;
  if (!start) return []; // past the last page
  const hourEnd = new Date(new Date(start.hour).getTime() + HOUR_MS);
  return findPage(db, { ...where, createdAt: { lt: hourEnd } }, skip - Number(start.newer), take);
}

/**
 * A deep page (page 500 of 50 skips 25,000 runs) in two steps: the page's keys from the index alone
 * (every column of the filter and order is in it: nothing is read from the table for the skipped
 * runs, on SQLite and, as an index-only scan, on PostgreSQL), then the page's rows by runId.
 */
async function findDeepPage(db: Db, where: Prisma.WorkflowSnapshotWhereInput, skip: number, take: number) {
  const keys = await db.workflowSnapshot.findMany({
    where,
    select: { workflowName: true, runId: true },
    orderBy: LISTING_ORDER,
    skip,
    take,
  });
  if (keys.length === 0) return [];
  // By primary key only: repeating the filter here would let SQLite scan by status instead.
  const rows = await db.workflowSnapshot.findMany({
    where: { workflowName: { in: [...new Set(keys.map((key) => key.workflowName))] }, runId: { in: keys.map((key) => key.runId) } },
    select: { ...LISTED, status: true },
  });
  const byKey = new Map(rows.map((row) => [`${row.workflowName} ${row.runId}`, row]));
  // A run that stopped waiting in between is left out, as it would be a moment later.
  return keys.flatMap((key) => {
    const row = byKey.get(`${key.workflowName} ${key.runId}`);
    return row && row.status === "suspended" && row.agentId ? [row] : [];
  });
}

/**
 * One agent's runs of a thread or of a resource, on SQLite. Its statistics come from PRAGMA
 * optimize, which samples only the first rows of each index. The thread's index leads with the
 * status and the agent's with the agent, and both begin with finished runs that have neither (a
 * workflow's): the samples rate one thread's waiting runs as more than a busy agent's, and SQLite
 * walked the agent's 33,000 runs in date order for a thread's 15 (224 ms at 100k instead of 0.3).
 * Here the agent is checked on the rows the thread's (or the resource's) index finds, never used
 * to find them (`+`: no index on an expression).
 */
async function listAgentRunsOfThreadOrResource(
  db: Db,
  options: z.output<typeof listSuspendedRunsOptions>,
  page: { skip: number; take: number } | undefined,
): Promise<ListSuspendedRunsResult> {
  const statements = agentRunsOfThreadOrResource(options, page);
  const [rows, [count]] = await Promise.all([
    queryStatement<ListedRow>(db, statements.page),
    queryStatement<{ total: number }>(db, statements.count),
  ]);
  return { total: Number(count!.total), runs: rows.map(toConsoleRun) };
}

/** The page and count statements of listAgentRunsOfThreadOrResource (exported for the planner test). */
export function agentRunsOfThreadOrResource(
  { agentId, threadId, resourceId, fromDate, toDate }: z.output<typeof listSuspendedRunsOptions>,
  page: { skip: number; take: number } | undefined,
) {
  const matches = sql`"status" = 'suspended' AND +"agent_id" = ${agentId!}
    ${threadId ? sql`AND "thread_id" = ${threadId}` : empty}
    ${resourceId ? sql`AND "resource_id" = ${resourceId}` : empty}
    ${createdWithin({ fromDate, toDate })}`;
  return {
    page: sql`SELECT ${listedColumns()} FROM "workflow_snapshots" WHERE ${matches}
      ORDER BY "created_at" DESC, "run_id" DESC ${page ? sql`LIMIT ${page.take} OFFSET ${page.skip}` : empty}`,
    count: sql`SELECT COUNT(*) AS "total" FROM "workflow_snapshots" WHERE ${matches}`,
  };
}

/**
 * Matching runs before pagination. Counting every suspended run (or every run of a busy agent)
 * grows with the backlog, so those totals are read from suspended_run_counts instead, and a
 * creation window of whole hours (what the console's day filter sends) sums its hours in
 * suspended_run_hours (a day: 24 rows an agent, where counting its runs read 33k index entries at
 * 1M); narrower filters count their matches in the index.
 */
async function countMatches(
  db: Db,
  where: Prisma.WorkflowSnapshotWhereInput,
  { agentId, onlyAgentFilter, window }: { agentId?: string; onlyAgentFilter: boolean; window: HourWindow | null },
): Promise<number> {
  if (window) {
    const { _sum } = await db.suspendedRunHour.aggregate({
      where: { agentId, hour: { gte: window.from, lt: window.until } },
      _sum: { runs: true },
    });
    return _sum.runs ?? 0;
  }
  if (!onlyAgentFilter) return db.workflowSnapshot.count({ where });
  const { _sum } = await db.suspendedRunCount.aggregate({ where: agentId ? { agentId } : undefined, _sum: { runs: true } });
  return _sum.runs ?? 0;
}

type HourWindow = { from?: Date; until?: Date };

/** A creation window of whole UTC hours; null without a window or when it cuts an hour. */
function wholeHours(fromDate: Date | undefined, toDate: Date | undefined): HourWindow | null {
  return fromDate || toDate ? wholeUnits(fromDate, toDate, HOUR_MS) : null;
}
