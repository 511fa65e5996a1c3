/**
 * The raw statements the ledger (ledger.ts) writes tool_call_decisions with, the same on SQLite and
 * PostgreSQL: sent through executeStatement and statementTransaction (@agent-approvals/mastra-store),
 * compiled once per SQLite connection, without the Prisma client's work per query. On PostgreSQL a
 * write with its audit entry (and event) is one statement instead (`…InOneStatement`).
 */
import { empty, join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { auditInsert, type AuditEntry } from "../audit/log.ts";
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { suggestionInsert, type SuggestionRow } from "./suggestion-record.ts";
import type { DecisionState } from "./types.ts";

/** First wins: the row is written only when the call has no decision yet (the unique key on run and tool call). */
export function decisionInsert(row: ToolCallDecision): Sql {
  return sql`INSERT INTO tool_call_decisions (id, run_id, tool_call_id, action, state, reviewer, agent_id, thread_id, resource_id, tool_name, reason, resume_data, answer, error, attempts, tool_ran_at, lease_until, decided_at, updated_at, batch_id, expiry_mode, via, rule_id, rule_version, args_digest)
    VALUES (${row.id}, ${row.runId}, ${row.toolCallId}, ${row.action}, ${row.state}, ${row.reviewer}, ${row.agentId}, ${row.threadId}, ${row.resourceId}, ${row.toolName}, ${row.reason}, ${row.resumeData}, ${row.answer}, ${row.error}, ${row.attempts}, ${row.toolRanAt}, ${row.leaseUntil}, ${row.decidedAt}, ${row.updatedAt}, ${row.batchId}, ${row.expiryMode}, ${row.via}, ${row.ruleId}, ${row.ruleVersion}, ${row.argsDigest})
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

/*
 * PostgreSQL over the network pays a round trip per statement, plus BEGIN and COMMIT: a transaction
 * of a write, its audit entry and its event was six. Data-modifying CTEs make it one statement,
 * atomic as the transaction was (a statement is its own transaction), whose other rows are written
 * only if the first write was made (each inserts `FROM` it), so first-wins and conditional moves
 * hold as before. SQLite has no data-modifying CTEs, and its transaction costs no round trips.
 */

/*
 * The record's commit does not wait for its WAL to reach the disk (synchronous_commit off for that
 * transaction alone): an fsync costs more than the round trip, and nothing acts on the record before
 * the recorded → applying move, whose commit waits and, PostgreSQL flushing its WAL in order, makes
 * the record durable first. Our process dying loses nothing (the server has the commit); the server
 * dying first loses a record nothing was done on (the applying move fails with it). The tool-ran
 * note is not written this way: it is what keeps a recovery from running the tool again, so it is
 * on disk before anything else happens.
 */
const FLUSHED_BY_THE_NEXT_MOVE = sql`set_config('synchronous_commit', 'off', true)`;

/** The decision, its `recorded` audit entry and a decline's suggestion; 1 written, or 0 when the call has a decision already. */
export function recordInOneStatement(row: ToolCallDecision, audit: AuditEntry, now: Date, suggestion?: SuggestionRow): Sql {
  const from = sql`FROM created`;
  return sql`WITH created AS (${decisionInsert(row)} RETURNING id), audited AS (${auditInsert(audit, now, from)})
    ${suggestion ? sql`, suggested AS (${suggestionInsert(suggestion, from)})` : empty}
    SELECT count(*)::int AS written, ${FLUSHED_BY_THE_NEXT_MOVE} FROM created`;
}

/** A move (moveStatement), its audit entry and its event's CTEs (unmailedEventCtes, `FROM moved`); 1 moved, or 0. */
export function moveInOneStatement(move: Sql, audit: AuditEntry | undefined, event: ((from: Sql) => Sql) | undefined, now: Date): Sql {
  const from = sql`FROM moved`;
  return sql`WITH moved AS (${move} RETURNING id)
    ${audit ? sql`, audited AS (${auditInsert(audit, now, from)})` : empty}
    ${event ? sql`, ${event(from)}` : empty}
    SELECT count(*)::int AS written FROM moved`;
}

/** Sends one of the statements above; how many decision rows it wrote. */
export async function writtenBy(db: Pick<Db, "$queryRaw">, statement: Sql): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ written: number }>>(statement);
  return row?.written ?? 0;
}

/**
 * PostgreSQL rolled this transaction back whole as a deadlock's victim (40P01) or a serialization
 * failure (40001): nothing of it was written, and running it again is what its client should do.
 * Two people deciding one call at once can deadlock: an approval that holds the audit chain waits
 * for the decision key a decline's statement holds, which waits for the chain. Prisma reports it as
 * P2034 from a transaction, P2010 (with the SQL state) from a raw statement.
 */
export function isRetryableConflict(error: unknown): boolean {
  const { code, message, meta } = (error ?? {}) as { code?: string; message?: string; meta?: { code?: string } };
  if (code === "P2034") return true;
  return code === "P2010" && /\b(40P01|40001)\b/.test(`${meta?.code ?? ""} ${message ?? ""}`);
}

/** Runs `run` again, up to 3 attempts in all, while it fails with an error `retryable` accepts (by default isRetryableConflict). */
export async function retriedOnConflict<T>(
  run: () => Promise<T>,
  retryable: (error: unknown) => boolean = isRetryableConflict,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!retryable(error) || attempt === 3) throw error;
    }
  }
}
