/**
 * The `suggestions` table: one row per declined-and-suggested call, used up at most once by the
 * agent's next call of the same tool in the same thread (lib/suggestions/claim.ts). A suggestion is
 * written with its decline's record (lib/decisions/suggestion-record.ts); here it is read, used up
 * and withdrawn.
 */
import type { Db } from "../db/client.ts";

export type SuggestionWriter = Pick<Db, "suggestion">;

/** Withdraws a suggestion whose decline did not happen (refused, or the agent failed before continuing). */
export async function dropSuggestion(db: SuggestionWriter, id: string): Promise<void> {
  await db.suggestion.deleteMany({ where: { id, usedAt: null } });
}

/** The suggestions still open for calls of these agents: not used up, not expired. */
export function openSuggestions(db: Pick<Db, "suggestion">, agentIds: string[], now = new Date()) {
  return db.suggestion.findMany({
    where: { agentId: { in: agentIds }, usedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: "desc" },
  });
}

/**
 * Uses a suggestion up for the call that claimed it, once: a conditional update that exactly one
 * claim wins, and only before the suggestion expires. False when it was used or expired meanwhile.
 */
export async function useSuggestion(
  tx: SuggestionWriter,
  id: string,
  call: { runId: string; toolCallId: string },
  outcome: "approved" | "other_args",
  now = new Date(),
): Promise<boolean> {
  const { count } = await tx.suggestion.updateMany({
    where: { id, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now, outcome, usedRunId: call.runId, usedToolCallId: call.toolCallId },
  });
  return count === 1;
}

/** The suggestion that approved a call (its decision is then "approved as suggested"), if any. */
export function suggestionThatApproved(db: Pick<Db, "suggestion">, call: { runId: string; toolCallId: string }) {
  return db.suggestion.findFirst({ where: { usedRunId: call.runId, usedToolCallId: call.toolCallId, outcome: "approved" } });
}
