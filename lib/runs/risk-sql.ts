/**
 * The queue's SQL for risk (lib/risk.ts): a run's calls take their risk from call_rule_matches, the
 * rule version that matched each when it started waiting. Like every filter of the queue it applies
 * per run (a run's parallel calls are listed together): a run has a risk when one of its waiting
 * calls has it, and its highest counts for "highest risk first". Overdue stays per call: each call
 * against its own risk's target, a call without a risk against REVIEW_SLA_MINUTES.
 *
 * A match counts only while its call still waits in the run: a run that waits again after an earlier
 * call was decided keeps that call's match row, so a match is checked against the run's pending
 * calls (`tool_calls`, a small JSON list). Every piece here is written against an unaliased
 * "workflow_snapshots", as the queue's queries read it.
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

/** Whether `m` (a call_rule_matches row) is a call the run still waits on. */
function stillWaiting(sqlite: boolean): Sql {
  const needle = sql`'"toolCallId":"' || "m"."tool_call_id" || '"'`;
  return sqlite
    ? sql`instr("workflow_snapshots"."tool_calls", ${needle}) > 0`
    : sql`strpos("workflow_snapshots"."tool_calls", ${needle}) > 0`;
}

function matchesOfRun(sqlite: boolean, risk: Sql = sql`"m"."risk" IS NOT NULL`): Sql {
  return sql`FROM "call_rule_matches" AS "m"
    WHERE "m"."run_id" = "workflow_snapshots"."run_id" AND ${risk} AND ${stillWaiting(sqlite)}`;
}

/**
 * Runs with a waiting call of one of `risks`: found from the risk's index (call_rule_matches
 * (risk, run_id)), then each checked against the run's pending calls.
 */
export function riskCondition(risks: Risk[], sqlite: boolean): Sql {
  const ofRisk = sql`"m"."risk" IN (${join(risks)})`;
  return sql`"run_id" IN (SELECT "m"."run_id" FROM "call_rule_matches" AS "m" WHERE ${ofRisk})
    AND EXISTS (SELECT 1 ${matchesOfRun(sqlite, ofRisk)})`;
}

/** A match's risk as 1 (low) to 4 (critical). */
const rankOfMatch = sql`CASE "m"."risk" ${join(
  RISKS.map((risk, index) => sql`WHEN ${risk} THEN ${index + 1}`),
  " ",
)} ELSE 0 END`;

/** A run's highest risk, 1 (low) to 4 (critical), 0 when none of its calls has one. */
export function runRiskRank(sqlite: boolean): Sql {
  return sql`COALESCE((SELECT MAX(${rankOfMatch}) ${matchesOfRun(sqlite)}), 0)`;
}

/**
 * ("rated_key", "risk_rank"): each thread with a rated waiting call and its highest risk, for
 * "highest risk first" over the per-thread summaries. Read from the rated matches (the risk index)
 * to their runs, never the whole backlog; SQLite is held to that order (CROSS JOIN).
 */
export function ratedThreads(query: { sqlite: boolean; agentId?: string; fromDate?: Date; toDate?: Date }): Sql {
  const agent = query.agentId ? sql`"workflow_snapshots"."agent_id" = ${query.agentId}` : sql`"workflow_snapshots"."agent_id" IS NOT NULL`;
  const created = [
    query.fromDate ? sql`AND "workflow_snapshots"."created_at" >= ${query.fromDate}` : null,
    query.toDate ? sql`AND "workflow_snapshots"."created_at" <= ${query.toDate}` : null,
  ].filter((part): part is Sql => part !== null);
  return sql`
    SELECT COALESCE("workflow_snapshots"."thread_id", '') AS "rated_key", MAX(${rankOfMatch}) AS "risk_rank"
    FROM "call_rule_matches" AS "m" ${query.sqlite ? sql`CROSS JOIN` : sql`JOIN`} "workflow_snapshots" ON "workflow_snapshots"."run_id" = "m"."run_id"
    WHERE "m"."risk" IS NOT NULL AND "workflow_snapshots"."status" = 'suspended' AND ${agent} AND ${stillWaiting(query.sqlite)}
      ${created.length ? join(created, " ") : empty}
    GROUP BY COALESCE("workflow_snapshots"."thread_id", '')`;
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
  return sql`(${unrated} + COALESCE((SELECT SUM(${ownTarget} - ${slaTarget}) ${matchesOfRun(options.sqlite)}), 0))`;
}

/** Runs with at least one overdue call; `waitingSince` is the (possibly wrapped) updated_at column. */
export function overdueRunCondition(options: RiskOptions, waitingSince: Sql): Sql {
  if (!options.riskCutoffs) return sql`${waitingSince} < ${options.overdueBefore}`;
  const { earliest, latest } = overdueWindow(options);
  return sql`(${waitingSince} < ${earliest} OR (${waitingSince} < ${latest} AND ${notOverdueCalls(options)} < "tool_call_count"))`;
}

/**
 * Whether any call was ever given a risk (one seek on the risk index). Without one the queue reads
 * exactly as before risks existed: one review target, the per-thread summaries.
 */
export async function anyRatedCall(db: Db): Promise<boolean> {
  const rows = await queryStatement<{ found: number }>(
    db,
    sql`SELECT 1 AS "found" FROM "call_rule_matches" WHERE "risk" IS NOT NULL LIMIT 1`,
  );
  return rows.length > 0;
}
