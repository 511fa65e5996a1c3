/**
 * An expiry in mark mode (an expiry rule's `mode: "mark"`, lib/decisions/expire.ts): the recorded
 * decision is the whole of it. Nothing is sent to the agent, so the run stays suspended in the store
 * (for the team to end in its own way), while the console treats the call as decided: a reviewer is
 * told it expired (ledger.ts), the queue shows it expired and not decidable, the history records the
 * outcome "expired" with the mode in its message, and `call.expired` carries `mode: "mark"`.
 * Marking stops nobody else: a call decided afterwards in Mastra Studio, by the team's code or on
 * their server is recorded as decided outside the console after its expiry (outside.ts).
 */
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { alreadyDecided, transition } from "./ledger.ts";
import type { DecisionOutcome } from "./types.ts";

export const MARKED_EXPIRED =
  "Marked expired (expiry mode: mark): the agent was not told and its run still waits in the store; the console no longer decides this call.";

/** Whether a decision is a mark expiry: recorded as applied, yet the agent was never told. */
export const isMarkExpiry = (decision: Pick<ToolCallDecision, "action" | "expiryMode">) =>
  decision.action === "expire" && decision.expiryMode === "mark";

export async function markExpired(db: Db, decision: ToolCallDecision): Promise<DecisionOutcome> {
  // No agent answered: the decision's answer (and call.expired's) stays null; the history's note says what happened.
  const applied = await transition(db, decision, "recorded", "applied", {}, { outcome: "expired", message: MARKED_EXPIRED });
  if (!applied) throw alreadyDecided(await db.toolCallDecision.findUniqueOrThrow({ where: { id: decision.id } }));
  return {
    action: "expire",
    runId: decision.runId,
    toolCallId: decision.toolCallId,
    agentId: decision.agentId,
    answer: MARKED_EXPIRED,
    runState: "waiting-again",
  };
}
