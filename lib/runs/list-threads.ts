/**
 * The review queue's listing: pages of threads, each with its waiting calls. A thread is never
 * split across pages; filters apply per run (each call of a run shares its agent, resource, dates
 * and waiting time), a thread appears when one of its runs matches and shows only the matching ones.
 *
 * Threads are ordered by how long their oldest matching call has waited (`oldest`: longest first,
 * what a review target needs; `newest`: the reverse), or by their highest risk, then oldest (`risk`,
 * lib/runs/risk-sql.ts). Runs without a thread share one group.
 *
 * Built to stay fast at 100k+ runs: with no filter but agent, overdue and whole days of creation,
 * the page and its totals come from the per-thread summaries (lib/runs/thread-summaries.ts, kept
 * exact by triggers in the snapshot write's transaction), and with one risk alone from the per-thread
 * risk summaries (lib/runs/thread-risks.ts); narrower filters (resource, thread,
 * assignee, a window that cuts a day) group their matches, which their indexes find first.
 * Every way reads a page's calls by key from the threads' index, at most `callsPerThread` a thread.
 * `npm run bench` measures it (bench/results.md).
 */
import { empty, join, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { databaseProvider } from "../db/database-url.ts";
import { queryStatement } from "@agent-approvals/mastra-store";
import { listedColumns, toConsoleRun, type ConsoleRun, type ListedRow } from "./list-suspended-runs.ts";
import { listThreadsOptions, type ListThreadsOptions } from "./validations.ts";
import { InvalidListOptionsError } from "./list-suspended-runs.ts";
import { agentCondition, createdWithin, inThreads, NO_THREAD_KEY, type ThreadQuery as Query, type ThreadRow } from "./thread-sql.ts";
import {
  anyRatedCall,
  notOverdueCalls,
  overdueRunCondition,
  ratedMatchedRuns,
  recentCallsOfRatedThreads,
  riskCondition,
  risksLead,
  runRiskRank,
} from "./risk-sql.ts";
import { pageOfSummaries, recentCallsOf, summariesCover } from "./thread-summaries.ts";
import { pageOfRiskSummaries, riskSummariesCover } from "./thread-risks.ts";
import { assignedToCondition, heldThreadRunCondition, ownCallRuns } from "./assignee-sql.ts";

export { NO_THREAD_KEY };

export interface ConsoleThread {
  /** The thread's id, or NO_THREAD_KEY for runs without one. */
  threadKey: string;
  /** Matching pending calls. */
  calls: number;
  /** Of those calls, how many wait since before `overdueBefore`. */
  overdueCalls: number;
  /** When the oldest matching call started waiting. */
  oldestAt: Date;
  /** The first `callsPerThread` matching runs, oldest first. */
  shownRuns: ConsoleRun[];
}

export interface ThreadListing {
  threads: ConsoleThread[];
  /** Matching threads and calls before pagination. */
  threadTotal: number;
  callTotal: number;
}

export async function listThreads(options: ListThreadsOptions, databaseUrl: string = databaseUrlFromEnv()): Promise<ThreadListing> {
  const parsed = listThreadsOptions.safeParse(options);
  if (!parsed.success) throw new InvalidListOptionsError(parsed.error.issues);
  const db = await getDb(databaseUrl);
  // Until a rule has rated a call, risks change nothing: one review target, and "highest risk first" is "oldest".
  const rated = await anyRatedCall(db);
  const query: Query = {
    ...parsed.data,
    sqlite: databaseProvider(databaseUrl) === "sqlite",
    riskCutoffs: rated ? parsed.data.riskCutoffs : undefined,
    sort: !rated && parsed.data.sort === "risk" ? "oldest" : parsed.data.sort,
  };
  const fromSummaries = summariesCover(query);
  const { rows, threadTotal, callTotal } = fromSummaries
    ? await pageOfSummaries(db, query)
    : riskSummariesCover(query)
      ? await pageOfRiskSummaries(db, query)
      : await pageOfMatches(db, query);
  const [shown, recent] = await Promise.all([
    readShownRuns(db, query, rows),
    fromSummaries ? recentCallsOf(db, query, rows) : new Map<string, number>(),
  ]);
  return {
    threadTotal,
    callTotal,
    threads: rows.map((row) => {
      const recentCalls = row.recentCalls ?? recent.get(row.threadKey) ?? 0;
      // With the overdue filter, the summary's counts include the thread's recent calls: take them off.
      const calls = query.onlyOverdue && fromSummaries ? row.calls - recentCalls : row.calls;
      return {
        threadKey: row.threadKey,
        calls,
        // Grouped matches count their calls not overdue yet even with the overdue filter: a run's
        // parallel calls of different risks can be overdue one and not the other.
        overdueCalls: query.onlyOverdue && fromSummaries ? calls : calls - recentCalls,
        oldestAt: row.oldestAt,
        shownRuns: shown.get(row.threadKey) ?? [],
      };
    }),
  };
}

/** Page and totals by grouping the matching runs (a resource, a thread or an assignee narrows them first). */
async function pageOfMatches(db: Db, query: Query): Promise<{ rows: ThreadRow[]; threadTotal: number; callTotal: number }> {
  const direction = query.sort === "newest" ? sql`DESC` : sql`ASC`;
  const byRisk = query.sort === "risk";
  const matched = matchedRuns(query);
  const grouped = sql`
    SELECT "thread_key", SUM("tool_call_count") AS "calls", MIN("updated_at") AS "oldest_at",
      SUM("not_overdue") AS "recent_calls" ${byRisk ? sql`, MAX("risk_rank") AS "risk_rank"` : empty}
    FROM (${matched}) AS "matched" GROUP BY "thread_key"`;
  const page = await queryStatement<{
    threadKey: string;
    calls: number | bigint;
    oldestAt: Date | string;
    recentCalls: number | bigint;
    threadTotal: number | bigint;
    callTotal: number | bigint;
  }>(
    db,
    sql`
    SELECT "thread_key" AS "threadKey", "calls", "oldest_at" AS "oldestAt", "recent_calls" AS "recentCalls",
      COUNT(*) OVER () AS "threadTotal", SUM("calls") OVER () AS "callTotal"
    FROM (${grouped}) AS "threads"
    ORDER BY ${byRisk ? sql`"risk_rank" DESC, ` : empty}"oldest_at" ${direction}, "thread_key" ${direction}
    LIMIT ${query.perPage} OFFSET ${query.page * query.perPage}`,
  );
  const recent = risksLead(query)
    ? await recentCallsOfRatedThreads(
        db,
        query,
        page.map((row) => row.threadKey),
      )
    : null;
  let totals = page[0] ? { threadTotal: Number(page[0].threadTotal), callTotal: Number(page[0].callTotal) } : null;
  if (!totals) {
    // Past the last page: the totals still say what there is.
    const [row] = await queryStatement<{ threads: number | bigint; calls: number | bigint | null }>(
      db,
      sql`
      SELECT COUNT(DISTINCT "thread_key") AS "threads", SUM("tool_call_count") AS "calls" FROM (${matched}) AS "matched"`,
    );
    totals = { threadTotal: Number(row?.threads ?? 0), callTotal: Number(row?.calls ?? 0) };
  }
  return {
    rows: page.map((row) => ({
      threadKey: row.threadKey,
      calls: Number(row.calls),
      // SQLite returns a computed MIN() of a DATETIME column as its stored text.
      oldestAt: new Date(row.oldestAt),
      recentCalls: recent ? (recent.get(row.threadKey) ?? 0) : Number(row.recentCalls),
    })),
    ...totals,
  };
}

/** The first `callsPerThread` matching runs of each thread on the page, oldest first. */
async function readShownRuns(db: Db, query: Query, rows: ThreadRow[]): Promise<Map<string, ConsoleRun[]>> {
  const threads = rows.filter((row) => row.threadKey !== NO_THREAD_KEY);
  const [threaded, withoutThread] = await Promise.all([
    threads.length ? readThreadsFirstRuns(db, query, threads) : [],
    threads.length < rows.length ? readFirstRunsWithoutThread(db, query) : [],
  ]);
  const byThread = new Map<string, ConsoleRun[]>();
  const ordered = [...threaded, ...withoutThread]
    .map(toConsoleRun)
    .sort((a, b) => a.suspendedAt.getTime() - b.suspendedAt.getTime() || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  for (const run of ordered) {
    const key = run.threadId ?? NO_THREAD_KEY;
    const runs = byThread.get(key) ?? [];
    runs.push(run);
    byThread.set(key, runs);
  }
  return byThread;
}

/**
 * Ranked within each thread from the threads' index alone; only the shown runs' rows are read, and
 * of them only the small columns (the snapshot JSON is never touched). The ranking's order is
 * wrapped so that SQLite never walks the waiting-time index for it: with planner statistics it
 * took that index's order over the threads' lookups and read every waiting run (29 ms for one
 * thread at 100k instead of 0.4). On SQLite the shown rows are then read by rowid, which the
 * threads' index holds: one look-up each instead of two through the primary key's index (a page of
 * ~900 calls: 2.3 ms of SQL instead of 4.6).
 */
function readThreadsFirstRuns(db: Db, query: Query, threads: ThreadRow[]): Promise<ListedRow[]> {
  const [key, join] = query.sqlite
    ? [sql`"rowid" AS "row_key"`, sql`"w"."rowid" = "ranked"."row_key" WHERE "ranked"."position" <= ${query.callsPerThread}`]
    : [
        sql`"workflow_name", "run_id"`,
        // Repeated on "w" so that PostgreSQL reads it by the threads' index too, never the whole table.
        sql`"w"."workflow_name" = "ranked"."workflow_name" AND "w"."run_id" = "ranked"."run_id"
          WHERE "ranked"."position" <= ${query.callsPerThread} AND "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL AND ${inThreads(threads, "w")}`,
      ];
  return queryStatement<ListedRow>(
    db,
    sql`
    SELECT ${listedColumns("w")}
    FROM (
      SELECT ${key}, ROW_NUMBER() OVER (PARTITION BY "thread_id" ORDER BY COALESCE("updated_at", "updated_at"), "run_id") AS "position"
      FROM "workflow_snapshots"
      WHERE ${matchConditions(query, threads)} AND ${inThreads(threads)}
    ) AS "ranked"
    JOIN "workflow_snapshots" AS "w" ON ${join}`,
  );
}

/**
 * The runs without a thread are one group, often the largest (every run of an agent used without
 * memory): ranking all of them to show the first few cost 100+ ms at 100k. Read in waiting order
 * instead, stopping after the first `callsPerThread`.
 */
const WITHOUT_THREAD: ThreadRow[] = [{ threadKey: NO_THREAD_KEY, calls: 0, oldestAt: new Date(0) }];

function readFirstRunsWithoutThread(db: Db, query: Query): Promise<ListedRow[]> {
  // A run without a thread is the reviewer's only through its own call: found from those, by id.
  const conditions = query.assignedTo
    ? sql`${matchConditions({ ...query, assignedTo: undefined }, WITHOUT_THREAD)}
      AND "run_id" IN (${ownCallRuns(query.assignedTo)})`
    : matchConditions(query, WITHOUT_THREAD);
  // Within a creation window, the window's runs are found by the threads' index (runs without a
  // thread, by creation) and their keys sorted there: walking the waiting-time index instead skips
  // every earlier run of the group, reading each one's row for its creation date (60-290 ms for one
  // day at 1M on PostgreSQL). Only the first few runs' rows are then read, by key.
  const waitingSince = query.fromDate || query.toDate ? sql`COALESCE("updated_at", "updated_at")` : sql`"updated_at"`;
  const [key, join] = query.sqlite
    ? [sql`"rowid" AS "row_key"`, sql`"w"."rowid" = "first"."row_key"`]
    : [sql`"workflow_name", "run_id"`, sql`"w"."workflow_name" = "first"."workflow_name" AND "w"."run_id" = "first"."run_id"`];
  return queryStatement<ListedRow>(
    db,
    sql`
    SELECT ${listedColumns("w")}
    FROM (
      SELECT ${key} FROM "workflow_snapshots"
      WHERE ${conditions} AND "thread_id" IS NULL
      ORDER BY ${waitingSince}, "run_id"
      LIMIT ${query.callsPerThread}
    ) AS "first"
    JOIN "workflow_snapshots" AS "w" ON ${join}`,
  );
}

/**
 * The matching runs' (thread_key, updated_at, tool_call_count). Led by the risk filter, from the
 * narrow rows of rated waiting calls (ratedRunsSource). With the assignee filter, as the
 * union of the reviewer's calls' runs and their threads' runs, each read by its own index (the
 * threads' covers every column); as one condition it looked every run up by id (4.4 ms of SQL at
 * 100k for ~1,000 runs instead of 1.5).
 */
function matchedRuns(query: Query): Sql {
  const computed = sql`${notOverdueCalls(query)} AS "not_overdue" ${query.sort === "risk" ? sql`, ${runRiskRank()} AS "risk_rank"` : empty}`;
  if (risksLead(query)) return ratedMatchedRuns(query);
  const columns = sql`"workflow_name", "run_id", COALESCE("thread_id", '') AS "thread_key", "updated_at", "tool_call_count", ${computed}`;
  if (!query.assignedTo) return sql`SELECT ${columns} FROM "workflow_snapshots" WHERE ${matchConditions(query)}`;
  const others = { ...query, assignedTo: undefined };
  return sql`
    SELECT ${columns} FROM "workflow_snapshots" WHERE ${matchConditions(others)} AND "run_id" IN (${ownCallRuns(query.assignedTo)})
    UNION
    SELECT ${columns} FROM "workflow_snapshots" WHERE ${matchConditions(others)} AND ${heldThreadRunCondition(query.assignedTo)}`;
}

/** The filters of `query` on workflow_snapshots, as one SQL condition; `threads`: the runs are of these. */
function matchConditions(query: Query, threads?: ThreadRow[]): Sql {
  const conditions: Sql[] = [sql`"status" = 'suspended'`, agentCondition(query.agentId)];
  if (query.threadId) conditions.push(sql`"thread_id" = ${query.threadId}`);
  if (query.noThread) conditions.push(sql`"thread_id" IS NULL`);
  if (query.resourceId) conditions.push(sql`"resource_id" = ${query.resourceId}`);
  if (query.assignedTo) conditions.push(assignedToCondition(query.assignedTo, query.sqlite));
  if (query.risks)
    conditions.push(
      riskCondition(
        query.risks,
        query.sqlite,
        threads?.map((thread) => thread.threadKey),
      ),
    );
  // Wrapped on SQLite so that it never walks the waiting-time index for it: nearly every call is
  // overdue, and the filter's own index (or the threads') narrows far better. Left bare on
  // PostgreSQL, which plans on statistics: wrapped, it guessed a third of the rows and read a
  // page's calls by key one at a time instead of in one pass (2x slower).
  if (query.onlyOverdue) {
    const waitingSince = query.sqlite ? sql`COALESCE("updated_at", "updated_at")` : sql`"updated_at"`;
    conditions.push(overdueRunCondition(query, waitingSince));
  }
  return sql`${join(conditions, " AND ")} ${createdWithin(query)}`;
}
