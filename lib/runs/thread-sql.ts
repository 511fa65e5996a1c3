/** SQL pieces the review queue's two ways of paging threads share (lib/runs/list-threads.ts, thread-summaries.ts). */
import { empty, join, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { listThreadsOptions } from "./validations.ts";

/** The group key of runs without a thread. */
export const NO_THREAD_KEY = "";

export type ThreadQuery = ReturnType<typeof listThreadsOptions.parse> & {
  /** The database is SQLite, whose planner (no statistics on expressions) needs steering PostgreSQL's does not. */
  sqlite: boolean;
};

export interface ThreadRow {
  threadKey: string;
  calls: number;
  oldestAt: Date;
  /** Calls of the thread waiting since `overdueBefore` or later, where known from the grouping. */
  recentCalls?: number;
}

/** Only agent-loop rows carry an owner: that is what makes a row an agent run. */
export function agentCondition(agentId: string | undefined): Sql {
  return agentId ? sql`"agent_id" = ${agentId}` : sql`"agent_id" IS NOT NULL`;
}

/**
 * The creation-date filter on workflow_snapshots, with its leading AND (or nothing). `wrapped`
 * hides the column from SQLite's planner, for a query that another index must drive.
 */
export function createdWithin(query: Pick<ThreadQuery, "fromDate" | "toDate">, { wrapped = false } = {}): Sql {
  const column = wrapped ? sql`COALESCE("created_at", "created_at")` : sql`"created_at"`;
  const conditions: Sql[] = [];
  if (query.fromDate) conditions.push(sql`${column} >= ${query.fromDate}`);
  if (query.toDate) conditions.push(sql`${column} <= ${query.toDate}`);
  return conditions.length ? sql`AND ${join(conditions, " AND ")}` : empty;
}

export function inThreads(rows: ThreadRow[], table?: "w"): Sql {
  const column = table ? sql`"w"."thread_id"` : sql`"thread_id"`;
  const ids = rows.map((row) => row.threadKey).filter((key) => key !== NO_THREAD_KEY);
  const withThread = ids.length > 0 ? sql`${column} IN (${join(ids)})` : null;
  const withoutThread = rows.some((row) => row.threadKey === NO_THREAD_KEY) ? sql`${column} IS NULL` : null;
  if (withThread && withoutThread) return sql`(${withThread} OR ${withoutThread})`;
  return withThread ?? withoutThread!;
}

/**
 * A creation window [fromDate, toDate] as whole units of `unitMs` (UTC days, hours) [from, until),
 * either end open; null when it cuts a unit. createdAt is stored to the millisecond, so "at most the
 * last millisecond of a unit" is "before the next one".
 */
export function wholeUnits(fromDate: Date | undefined, toDate: Date | undefined, unitMs: number): { from?: Date; until?: Date } | null {
  const until = toDate ? new Date(toDate.getTime() + 1) : undefined;
  if (fromDate && fromDate.getTime() % unitMs !== 0) return null;
  if (until && until.getTime() % unitMs !== 0) return null;
  return { from: fromDate, until };
}
