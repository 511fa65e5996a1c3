/**
 * The `suggestions` table: one row per declined-and-suggested call, used up at most once by the
 * agent's next call of the same tool in the same thread (lib/suggestions/claim.ts). The one place
 * that writes it.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../db/client.ts";
import { numericSetting } from "../numeric-settings.mjs";

export type SuggestionWriter = Pick<Db, "suggestion">;

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

/** Records a suggestion before its decline is sent; null when the call already has one (another reviewer is suggesting). */
export async function recordSuggestion(db: SuggestionWriter, suggestion: NewSuggestion, now = new Date()): Promise<string | null> {
  const id = randomUUID();
  try {
    await db.suggestion.create({
      data: { id, ...suggestion, createdAt: now, expiresAt: new Date(now.getTime() + suggestionWindowMs()) },
    });
    return id;
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return null;
    throw error;
  }
}

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
