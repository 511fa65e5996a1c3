/**
 * The raw statements the ledger (ledger.ts) writes tool_call_decisions with, the same on SQLite and
 * PostgreSQL: sent through executeStatement and statementTransaction (@agent-approvals/mastra-store),
 * compiled once per SQLite connection, without the Prisma client's work per query.
 */
import { join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import type { DecisionState } from "./types.ts";

/** First wins: the row is written only when the call has no decision yet (the unique key on run and tool call). */
export function decisionInsert(row: ToolCallDecision): Sql {
  return sql`INSERT INTO tool_call_decisions (id, run_id, tool_call_id, action, state, reviewer, agent_id, thread_id, resource_id, tool_name, reason, resume_data, answer, error, attempts, tool_ran_at, lease_until, decided_at, updated_at, batch_id, expiry_mode, via, rule_id, rule_version)
    VALUES (${row.id}, ${row.runId}, ${row.toolCallId}, ${row.action}, ${row.state}, ${row.reviewer}, ${row.agentId}, ${row.threadId}, ${row.resourceId}, ${row.toolName}, ${row.reason}, ${row.resumeData}, ${row.answer}, ${row.error}, ${row.attempts}, ${row.toolRanAt}, ${row.leaseUntil}, ${row.decidedAt}, ${row.updatedAt}, ${row.batchId}, ${row.expiryMode}, ${row.via}, ${row.ruleId}, ${row.ruleVersion})
    ON CONFLICT (run_id, tool_call_id) DO NOTHING`;
}

/** What a move between states may change beside the state. */
export type DecisionChanges = { answer?: string; error?: string; attempts?: number; leaseUntil?: Date; toolRanAt?: Date };

const CHANGED_COLUMNS: Record<keyof DecisionChanges, string> = {
  answer: "answer",
  error: "error",
  attempts: "attempts",
  leaseUntil: "lease_until",
  toolRanAt: "tool_ran_at",
};

/** The conditional UPDATE of a move: it changes the row only while the decision is still in `from`. */
export function moveStatement(
  decision: ToolCallDecision,
  from: DecisionState,
  to: DecisionState,
  changes: DecisionChanges,
  now: Date,
): Sql {
  const columns = (Object.keys(CHANGED_COLUMNS) as Array<keyof DecisionChanges>).filter((key) => changes[key] !== undefined);
  const set = [sql`state = ${to}`, sql`updated_at = ${now}`, ...columns.map((key) => sql`${raw(CHANGED_COLUMNS[key])} = ${changes[key]}`)];
  return sql`UPDATE tool_call_decisions SET ${join(set, ", ")} WHERE id = ${decision.id} AND state = ${from}`;
}

/** Notes that the decided call's tool ran, while the decision is being applied. */
export function toolRanStatement(decision: ToolCallDecision, at: Date): Sql {
  return sql`UPDATE tool_call_decisions SET tool_ran_at = ${at} WHERE id = ${decision.id} AND state = ${"applying"}`;
}
