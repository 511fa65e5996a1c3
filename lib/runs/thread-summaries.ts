/**
 * Pages of threads read from the trigger-kept summaries instead of grouping the runs: suspended_threads
 * when the filters are at most an agent and "overdue", suspended_thread_days when they add a creation
 * window of whole UTC days (what the console's day filter sends). Either way the cost is the page
 * plus a range of summary rows, whatever the backlog; the few calls waiting under the review target
 * are counted from the runs and taken off for "overdue". Without a window or "overdue" the totals
 * are read from suspended_thread_totals, not counted.
 */
import { empty, join, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { queryStatement } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import { notOverdueCalls, overdueWindow, threadRiskIs } from "./risk-sql.ts";
import { RISKS } from "../risk.ts";
import { agentCondition, createdWithin, wholeUnits, type ThreadQuery, type ThreadRow } from "./thread-sql.ts";

const DAY_MS = 86_400_000;

/** Whether a page for `query` can be read from the summaries. */
export function summariesCover(query: Omit<ThreadQuery, "sqlite">): boolean {
  if (query.threadId || query.noThread || query.resourceId || query.assignedTo || query.risks) return false;
  return wholeDays(query) !== null;
}

/** The creation window as whole UTC days [fromDay, toDayExclusive), either end open; null when it cuts a day. */
function wholeDays(query: Pick<ThreadQuery, "fromDate" | "toDate">): { from?: Date; until?: Date } | null {
  return wholeUnits(query.fromDate, query.toDate, DAY_MS);
}

/** Rows of (thread_key, calls, oldest_at), one per thread, for the agent key and the window. */
function summaryRows(query: ThreadQuery): Sql {
  const agentKey = query.agentId ?? "";
  if (!query.fromDate && !query.toDate) {
    return sql`SELECT "thread_key", "calls", "oldest_at" FROM "suspended_threads" WHERE "agent_id" = ${agentKey}`;
  }
  const { from, until } = wholeDays(query)!;
  if (from && until && until.getTime() - from.getTime() === DAY_MS) {
    // One day: a thread has one row, read in order from the day's index.
    return sql`SELECT "thread_key", "calls", "oldest_at" FROM "suspended_thread_days" WHERE "agent_id" = ${agentKey} AND "day" = ${from}`;
  }
  return sql`
    SELECT "thread_key", SUM("calls") AS "calls", MIN("oldest_at") AS "oldest_at" FROM "suspended_thread_days"
    WHERE "agent_id" = ${agentKey} ${from ? sql`AND "day" >= ${from}` : empty} ${until ? sql`AND "day" < ${until}` : empty}
    GROUP BY "thread_key"`;
}

type PageRow = { threadKey: string; calls: number | bigint; oldestAt: Date | string };

type Totals = { threadTotal: number; callTotal: number };

/** A page of threads and the totals, from the summaries (see summariesCover). */
export async function pageOfSummaries(db: Db, query: ThreadQuery): Promise<{ rows: ThreadRow[] } & Totals> {
  const rows = summaryRows(query);
  if (totalsKept(query)) {
    // Past the first page the totals come first, so that a page past the middle is read from the other end.
    const known = query.page > 0 ? await keptTotals(db, query) : undefined;
    const [page, totals] = await Promise.all([pageByWaiting(db, query, rows, known?.threadTotal), known ?? keptTotals(db, query)]);
    return { rows: page.map(threadRow), ...totals };
  }
  const [page, [totals], recentTotal] = await Promise.all([
    query.sort === "risk" ? pageByRisk(db, query, rows) : pageByWaiting(db, query, rows),
    queryStatement<{ threads: number | bigint | null; calls: number | bigint | null }>(
      db,
      sql`
      SELECT ${query.onlyOverdue ? sql`SUM(CASE WHEN ${overdueThread(query)} THEN 1 ELSE 0 END)` : sql`COUNT(*)`} AS "threads",
        SUM("calls") AS "calls"
      FROM (${rows}) AS "threads"`,
    ),
    // Overdue calls are all calls but the recent ones, which are few: count those instead.
    query.onlyOverdue ? sumRecentCalls(db, query) : Promise.resolve(0),
  ]);
  return {
    rows: page.map(threadRow),
    threadTotal: Number(totals?.threads ?? 0),
    callTotal: Number(totals?.calls ?? 0) - recentTotal,
  };
}

// SQLite returns a computed MIN() of a DATETIME column as its stored text.
const threadRow = (row: PageRow): ThreadRow => ({ threadKey: row.threadKey, calls: Number(row.calls), oldestAt: new Date(row.oldestAt) });

/**
 * Whether the totals are kept rather than counted: every thread of an agent key (no window, not
 * only the overdue ones), waiting order. suspended_thread_totals holds them (lib/db/derived-tables.ts).
 */
function totalsKept(query: ThreadQuery): boolean {
  return !query.onlyOverdue && !query.fromDate && !query.toDate && query.sort !== "risk";
}

async function keptTotals(db: Db, query: ThreadQuery): Promise<Totals> {
  const [row] = await queryStatement<{ threads: number | bigint | null; calls: number | bigint | null }>(
    db,
    sql`SELECT SUM("threads") AS "threads", SUM("calls") AS "calls" FROM "suspended_thread_totals" WHERE "agent_id" = ${query.agentId ?? ""}`,
  );
  return { threadTotal: Number(row?.threads ?? 0), callTotal: Number(row?.calls ?? 0) };
}

/** The summary rows that pass the overdue filter (if asked), in waiting order, `limit` from `offset`. */
function summaryPage(db: Db, query: ThreadQuery, rows: Sql, { also, limit, offset }: { also?: Sql; limit: number; offset: number }) {
  const direction = query.sort === "newest" ? sql`DESC` : sql`ASC`;
  const conditions = [query.onlyOverdue ? overdueThread(query) : undefined, also].filter((part): part is Sql => part !== undefined);
  return queryStatement<PageRow>(
    db,
    sql`
    SELECT "thread_key" AS "threadKey", "calls", "oldest_at" AS "oldestAt" FROM (${rows}) AS "threads"
    ${conditions.length ? sql`WHERE ${join(conditions, " AND ")}` : empty}
    ORDER BY "oldest_at" ${direction}, "thread_key" ${direction}
    LIMIT ${limit} OFFSET ${offset}`,
  );
}

/**
 * The page in waiting order. With the total known, a page past the middle is read from the other
 * end, so the last page costs what the first does (an offset walks the index up to it).
 */
async function pageByWaiting(db: Db, query: ThreadQuery, rows: Sql, total?: number): Promise<PageRow[]> {
  const offset = query.page * query.perPage;
  if (total === undefined || offset <= total / 2) return summaryPage(db, query, rows, { limit: query.perPage, offset });
  const end = Math.min(offset + query.perPage, total);
  if (end <= offset) return [];
  const reversed = { ...query, sort: query.sort === "newest" ? "oldest" : "newest" } as const;
  return (await summaryPage(db, reversed, rows, { limit: end - offset, offset: total - end })).reverse();
}

/**
 * "Highest risk first": the threads whose highest risk is critical in waiting order, then high, and
 * so on down to the threads without a rated call, read a risk at a time until the page is full. A
 * risk whose threads all fall before the page is read only to count them (deep pages only).
 */
async function pageByRisk(db: Db, query: ThreadQuery, rows: Sql): Promise<PageRow[]> {
  const page: PageRow[] = [];
  let skip = query.page * query.perPage;
  for (let rank = RISKS.length; rank >= 0 && page.length < query.perPage; rank--) {
    const limit = skip + query.perPage - page.length;
    const found = await summaryPage(db, query, rows, { also: threadRiskIs(query, rank), limit, offset: 0 });
    page.push(...found.slice(skip));
    skip = Math.max(0, skip - found.length);
  }
  return page;
}

/**
 * A summary row (a thread) with an overdue call: its oldest call waits since before every target, or
 * (with risks) one of its calls within the window is overdue against its own risk's target.
 */
function overdueThread(query: ThreadQuery): Sql {
  if (!query.riskCutoffs) return sql`"oldest_at" < ${query.overdueBefore}`;
  const { earliest, latest } = overdueWindow(query);
  return sql`("oldest_at" < ${earliest} OR "thread_key" IN (
    SELECT COALESCE("thread_id", '') FROM "workflow_snapshots"
    WHERE "status" = 'suspended' AND "updated_at" >= ${earliest} AND "updated_at" < ${latest} AND ${agentCondition(query.agentId)}
      AND ${notOverdueCalls(query)} < "tool_call_count" ${createdWithin(query)}))`;
}

/** Calls not overdue yet: all waiting since the window's start or later, less those overdue by their risk. */
async function sumRecentCalls(db: Db, query: ThreadQuery): Promise<number> {
  const [row] = await queryStatement<{ calls: number | bigint | null }>(
    db,
    sql`
    SELECT SUM(${notOverdueCalls(query)}) AS "calls" FROM "workflow_snapshots"
    WHERE "status" = 'suspended' AND "updated_at" >= ${overdueWindow(query).earliest} AND ${agentCondition(query.agentId)} ${createdWithin(query)}`,
  );
  return Number(row?.calls ?? 0);
}

/**
 * For the page's threads (summary path), their calls waiting since `overdueBefore` or later. Found
 * from the waiting-time index (those calls are few by design); the threads and dates are wrapped so
 * that SQLite never looks them up by the threads' or the dates' index instead: for a page with the
 * runs without a thread, that read every waiting run (39 ms at 100k).
 */
export async function recentCallsOf(db: Db, query: ThreadQuery, rows: ThreadRow[]): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const found = await queryStatement<{ threadKey: string; calls: number | bigint | null }>(
    db,
    sql`
    SELECT COALESCE("thread_id", '') AS "threadKey", SUM(${notOverdueCalls(query)}) AS "calls" FROM "workflow_snapshots"
    WHERE "status" = 'suspended' AND "updated_at" >= ${overdueWindow(query).earliest} AND ${agentCondition(query.agentId)}
      AND COALESCE("thread_id", '') IN (${join(rows.map((row) => row.threadKey))}) ${createdWithin(query, { wrapped: true })}
    GROUP BY COALESCE("thread_id", '')`,
  );
  return new Map(found.map((row) => [row.threadKey, Number(row.calls ?? 0)]));
}
