/**
 * The queue's SQL for risk (lib/risk.ts): a call takes its risk from the rule version that matched it
 * when it started waiting (call_rule_matches), read here from waiting_call_risks: one narrow row per
 * waiting rated call with its run's thread, agent and times, kept by triggers as matches are written
 * and snapshots change (the console's migration waiting_call_risks). A call that no longer waits has
 * no row there, so nothing here checks a match against the run's pending calls, and nothing reads a
 * run's wide row to find its risk.
 *
 * Like every filter of the queue it applies per run (a run's parallel calls are listed together): a
 * run has a risk when one of its waiting calls has it, and its highest counts for "highest risk
 * first". Overdue stays per call: each call against its own risk's target, a call without a risk
 * against REVIEW_SLA_MINUTES. Every piece here is written against an unaliased "workflow_snapshots",
 * as the queue's queries read it.
 */
import { empty, join, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { queryStatement } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import { RISKS, type Risk } from "../risk.ts";

export interface RiskOptions {
  sqlite: boolean;
  /** Calls without a risk that wait since before this instant are overdue. */
  overdueBefore: Date;
  /** Each risk's overdue cutoff; absent when no call has a risk (then only overdueBefore counts). */
  riskCutoffs?: Record<Risk, Date>;
}

/** `m`: the waiting rated calls of the run of the enclosing workflow_snapshots row (a primary key range). */
function ratedCallsOfRun(also: Sql = empty): Sql {
  return sql`FROM "waiting_call_risks" AS "m"
    WHERE "m"."workflow_name" = "workflow_snapshots"."workflow_name" AND "m"."run_id" = "workflow_snapshots"."run_id" ${also}`;
}

/**
 * Runs with a waiting call of one of `risks`, as a condition on workflow_snapshots. Where it is used
 * another index leads (a resource's, the page's threads'); on SQLite the run id is wrapped so the
 * planner never drives from the risk's thousands of runs, looking each up by id (50 ms for a page's
 * shown runs at 100k instead of a few).
 */
export function riskCondition(risks: Risk[], sqlite: boolean, threadKeys?: string[]): Sql {
  const runId = sqlite ? sql`COALESCE("run_id", "run_id")` : sql`"run_id"`;
  // The page's threads, when known, narrow the list of rated runs to theirs.
  const inThreads = threadKeys?.length ? sql`AND "m"."thread_key" IN (${join(threadKeys)})` : empty;
  return sql`${runId} IN (SELECT "m"."run_id" FROM "waiting_call_risks" AS "m" WHERE "m"."risk" IN (${join(risks)}) ${inThreads})`;
}

type RatedQuery = RiskOptions & {
  risks?: Risk[];
  agentId?: string;
  threadId?: string;
  noThread?: boolean;
  fromDate?: Date;
  toDate?: Date;
  resourceId?: string;
  assignedTo?: string;
  onlyOverdue?: boolean;
  sort?: string;
};

/** Whether the risk filter leads a page: nothing narrower (a resource, an assignee) is asked for. */
export function risksLead(query: RatedQuery): query is RatedQuery & { risks: Risk[] } {
  return Boolean(query.risks && !query.resourceId && !query.assignedTo);
}

/**
 * The runs with a waiting call of one of `risks` (and the other filters the narrow rows answer),
 * read from those rows alone and shaped (and aliased) like workflow_snapshots: the risk filter's
 * page, grouped without looking up each rated run's wide row. A run with several calls of the
 * risks has a row for each; DISTINCT keeps one (their run columns are the run's).
 */
function ratedRunsSource(query: RatedQuery & { risks: Risk[] }, threadKeys?: string[]): Sql {
  const conditions = [
    sql`"risk" IN (${join(query.risks)})`,
    query.agentId ? sql`"agent_id" = ${query.agentId}` : null,
    query.threadId ? sql`"thread_key" = ${query.threadId}` : null,
    query.noThread ? sql`"thread_key" = ''` : null,
    query.fromDate ? sql`"created_at" >= ${query.fromDate}` : null,
    query.toDate ? sql`"created_at" <= ${query.toDate}` : null,
    threadKeys ? sql`"thread_key" IN (${join(threadKeys)})` : null,
  ].filter((part): part is Sql => part !== null);
  return sql`(SELECT DISTINCT "workflow_name", "run_id", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count"
    FROM "waiting_call_risks" WHERE ${join(conditions, " AND ")}) AS "workflow_snapshots"`;
}

/**
 * The matching runs' (thread_key, updated_at, tool_call_count, not_overdue[, risk_rank]) when the
 * risk filter leads. Counting each run's calls not overdue yet looks up its rated calls (20-30 ms
 * over the 12,500 runs of one risk at 100k on SQLite); unless the overdue filter needs it for every
 * run, it is left 0 here and counted for the page's threads alone (recentCallsOfRatedThreads).
 */
export function ratedMatchedRuns(query: RatedQuery & { risks: Risk[] }): Sql {
  const notOverdue = query.onlyOverdue ? notOverdueCalls(query) : sql`0`;
  const rank = query.sort === "risk" ? sql`, ${runRiskRank()} AS "risk_rank"` : empty;
  const overdue = query.onlyOverdue ? sql`WHERE ${overdueRunCondition(query, sql`"updated_at"`)}` : empty;
  return sql`SELECT "workflow_name", "run_id", "thread_key", "updated_at", "tool_call_count", ${notOverdue} AS "not_overdue" ${rank}
    FROM ${ratedRunsSource(query)} ${overdue}`;
}

/** The calls not overdue yet of each of these threads' matching runs, when ratedMatchedRuns left them out. */
export async function recentCallsOfRatedThreads(
  db: Db,
  query: RatedQuery & { risks: Risk[] },
  threadKeys: string[],
): Promise<Map<string, number> | null> {
  if (query.onlyOverdue) return null;
  if (threadKeys.length === 0) return new Map();
  // A run waiting since before the earliest cutoff is overdue whatever its risk: only the later ones
  // are counted (few by design), rather than each of the page's rated runs looking up its calls
  // (8,800 runs for a page with the runs without a thread at 1M: 97 ms).
  const rows = await queryStatement<{ threadKey: string; calls: number | bigint | null }>(
    db,
    sql`SELECT "thread_key" AS "threadKey", SUM(${notOverdueCalls(query)}) AS "calls"
      FROM ${ratedRunsSource(query, threadKeys)} WHERE "updated_at" >= ${overdueWindow(query).earliest} GROUP BY "thread_key"`,
  );
  return new Map(rows.map((row) => [row.threadKey, Number(row.calls ?? 0)]));
}

/** A run's highest risk, 1 (low) to 4 (critical), 0 when none of its calls has one. */
export function runRiskRank(): Sql {
  return sql`COALESCE((SELECT MAX("m"."risk_rank") ${ratedCallsOfRun()}), 0)`;
}

/**
 * On a per-thread summary row (aliased "threads"): the thread's highest risk among its waiting rated
 * calls is `rank` (1 low to 4 critical), or with 0 it has none; only the calls of the agent and the
 * window asked for count. Each thread is probed by key through the (thread_key, risk_rank) indexes:
 * "highest risk first" reads its page a risk at a time (thread-summaries.ts), walking the threads in
 * waiting order and stopping at a page, instead of ranking every thread first (20 ms at 1M).
 * Without an agent or a window the per-thread risk summaries answer (a few rows a thread);
 * with them, the rated calls' rows.
 */
export function threadRiskIs(query: { agentId?: string; fromDate?: Date; toDate?: Date }, rank: number): Sql {
  const conditions = [
    query.agentId ? sql`"r"."agent_id" = ${query.agentId}` : null,
    query.fromDate ? sql`"r"."created_at" >= ${query.fromDate}` : null,
    query.toDate ? sql`"r"."created_at" <= ${query.toDate}` : null,
  ].filter((part): part is Sql => part !== null);
  const source = conditions.length ? sql`"waiting_call_risks"` : sql`"waiting_thread_risks"`;
  const rated = (rankCondition: Sql) =>
    sql`SELECT 1 FROM ${source} AS "r" WHERE "r"."thread_key" = "threads"."thread_key" AND ${rankCondition} ${
      conditions.length ? sql`AND ${join(conditions, " AND ")}` : empty
    }`;
  const atRank = sql`EXISTS (${rated(sql`"r"."risk_rank" = ${rank}`)})`;
  // Nothing is above the highest risk: asked anyway, PostgreSQL expects no row and scans them all.
  if (rank >= RISKS.length) return atRank;
  const noneHigher = sql`NOT EXISTS (${rated(sql`"r"."risk_rank" > ${rank}`)})`;
  return rank === 0 ? noneHigher : sql`${atRank} AND ${noneHigher}`;
}

/**
 * The window of waiting starts within which a call may or may not be overdue, by its risk:
 * runs waiting since before `earliest` are overdue whatever their risk, since `latest` or later never.
 */
export function overdueWindow(options: RiskOptions): { earliest: Date; latest: Date } {
  const cutoffs = [options.overdueBefore, ...(options.riskCutoffs ? Object.values(options.riskCutoffs) : [])];
  const times = cutoffs.map((cutoff) => cutoff.getTime());
  return { earliest: new Date(Math.min(...times)), latest: new Date(Math.max(...times)) };
}

/** How many of a run's calls are not overdue yet (on workflow_snapshots, per row). */
export function notOverdueCalls(options: RiskOptions): Sql {
  const unrated = sql`CASE WHEN "workflow_snapshots"."updated_at" >= ${options.overdueBefore} THEN "workflow_snapshots"."tool_call_count" ELSE 0 END`;
  if (!options.riskCutoffs) return unrated;
  const cutoffs = options.riskCutoffs;
  // Each rated call counts by its own target instead of REVIEW_SLA_MINUTES.
  const ownTarget = sql`CASE ${join(
    RISKS.map((risk) => sql`WHEN "m"."risk" = ${risk} AND "workflow_snapshots"."updated_at" >= ${cutoffs[risk]} THEN 1`),
    " ",
  )} ELSE 0 END`;
  const slaTarget = sql`CASE WHEN "workflow_snapshots"."updated_at" >= ${options.overdueBefore} THEN 1 ELSE 0 END`;
  return sql`(${unrated} + COALESCE((SELECT SUM(${ownTarget} - ${slaTarget}) ${ratedCallsOfRun()}), 0))`;
}

/** Runs with at least one overdue call; `waitingSince` is the (possibly wrapped) updated_at column. */
export function overdueRunCondition(options: RiskOptions, waitingSince: Sql): Sql {
  if (!options.riskCutoffs) return sql`${waitingSince} < ${options.overdueBefore}`;
  const { earliest, latest } = overdueWindow(options);
  return sql`(${waitingSince} < ${earliest} OR (${waitingSince} < ${latest} AND ${notOverdueCalls(options)} < "tool_call_count"))`;
}

/**
 * Whether any call was ever given a risk (one seek on the risk index of call_rule_matches). Without
 * one the queue reads exactly as before risks existed: one review target, the per-thread summaries.
 */
export async function anyRatedCall(db: Db): Promise<boolean> {
  const rows = await queryStatement<{ found: number }>(
    db,
    sql`SELECT 1 AS "found" FROM "call_rule_matches" WHERE "risk" IS NOT NULL LIMIT 1`,
  );
  return rows.length > 0;
}
