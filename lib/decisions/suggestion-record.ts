/**
 * A decline's suggestion (lib/suggestions) as the ledger records it: written with the decline's
 * first-wins record, in its statement or transaction (ledger.ts), so that whoever wins the record
 * owns the call's only suggestion and a reviewer who loses writes none. Kept beside the ledger, as
 * the ledger writes it; lib/suggestions reads it, uses it up and withdraws it.
 */
import { randomUUID } from "node:crypto";
import { sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { Db } from "../db/client.ts";
import { numericSetting } from "../numeric-settings.mjs";

/** How long a suggestion waits for the agent's next call (SUGGESTION_WINDOW_MINUTES). */
export function suggestionWindowMs(): number {
  return numericSetting("SUGGESTION_WINDOW_MINUTES") * 60_000;
}

export interface NewSuggestion {
  runId: string;
  toolCallId: string;
  agentId: string;
  threadId: string | null;
  resourceId: string | null;
  toolName: string;
  /** Canonical JSON (lib/suggestion-wording.ts). */
  args: string;
  suggestedBy: string;
}

/** A suggestion as its decline records it: the row, with its id and window. */
export type SuggestionRow = NewSuggestion & { id: string; createdAt: Date; expiresAt: Date };

export function suggestionRow(suggestion: NewSuggestion, now = new Date()): SuggestionRow {
  return { id: randomUUID(), ...suggestion, createdAt: now, expiresAt: new Date(now.getTime() + suggestionWindowMs()) };
}

/**
 * The INSERT that records a suggestion with its decline, in the statement (PostgreSQL: `from` is
 * `FROM created`, written only if the decision was) or transaction (SQLite) of the decision's
 * first-wins record. A row already there for the call belongs to a
 * decline that never happened (released, or written before this rule held): it is replaced.
 */
export function suggestionInsert(row: SuggestionRow, from?: Sql): Sql {
  const values = sql`${row.id}, ${row.runId}, ${row.toolCallId}, ${row.agentId}, ${row.threadId}, ${row.resourceId}, ${row.toolName}, ${row.args}, ${row.suggestedBy}, ${row.createdAt}, ${row.expiresAt}`;
  return sql`INSERT INTO suggestions (id, run_id, tool_call_id, agent_id, thread_id, resource_id, tool_name, args, suggested_by, created_at, expires_at)
    ${from ? sql`SELECT ${values} ${from}` : sql`VALUES (${values})`}
    ON CONFLICT (run_id, tool_call_id) DO UPDATE SET id = excluded.id, agent_id = excluded.agent_id, thread_id = excluded.thread_id,
      resource_id = excluded.resource_id, tool_name = excluded.tool_name, args = excluded.args, suggested_by = excluded.suggested_by,
      created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = NULL, outcome = NULL, used_run_id = NULL, used_tool_call_id = NULL`;
}

/**
 * A released decision of the call taken over (ledger.ts), in its transaction: the new decision's
 * suggestion replaces the released decline's, and a decision without one withdraws it.
 */
export async function replaceSuggestion(
  tx: Pick<Db, "suggestion" | "$executeRaw">,
  call: { runId: string; toolCallId: string },
  row: SuggestionRow | undefined,
): Promise<void> {
  if (row) await tx.$executeRaw(suggestionInsert(row));
  else await tx.suggestion.deleteMany({ where: { runId: call.runId, toolCallId: call.toolCallId, usedAt: null } });
}
