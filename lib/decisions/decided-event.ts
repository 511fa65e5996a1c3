/** What a settled decision announces (lib/events): `call.decided`, or `call.expired` for an expiry carried out. */
import type { DecidedBy } from "../events/types.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import type { DecisionState } from "./types.ts";

/** An expiry carried out is announced as `call.expired`, never as somebody's decision. */
export function settledEventOf(decision: ToolCallDecision, state: DecisionState): "call.decided" | "call.expired" {
  return decision.action === "expire" && state === "applied" ? "call.expired" : "call.decided";
}

/** The `call.decided` event's data: the call, who decided what, and how it ended. */
export function decidedEvent(decision: ToolCallDecision, state: DecisionState, changes: { answer?: string; error?: string }) {
  const decidedBy: DecidedBy = decision.action === "expire" ? "expiry" : decision.ruleId ? "rule" : "console";
  return {
    runId: decision.runId,
    toolCallId: decision.toolCallId,
    toolName: decision.toolName,
    agentId: decision.agentId,
    threadId: decision.threadId,
    resourceId: decision.resourceId,
    decisionId: decision.id,
    reviewer: decision.reviewer,
    action: decision.action,
    reason: decision.reason,
    state,
    answer: changes.answer ?? decision.answer,
    error: changes.error ?? decision.error,
    decidedAt: decision.decidedAt.toISOString(),
    decidedBy,
    // An expiry says how it expired: declined through the agent, or only marked (the run still waits).
    ...(decision.action === "expire" ? { mode: decision.expiryMode ?? "decline" } : {}),
    // A rule's decision names the rule and the version that decided (the reviewer says it in words).
    ...(decision.ruleId ? { ruleId: decision.ruleId, ruleVersion: decision.ruleVersion } : {}),
  };
}
