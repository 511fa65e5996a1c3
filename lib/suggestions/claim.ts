/**
 * A suggestion at work: when a call starts waiting, the instance that claims it (lib/events/waiting.ts,
 * through lib/rules/auto-decide.ts, before the ordinary rules) asks whether a reviewer suggested
 * arguments for this agent's next call of this tool in this thread (without a thread: in this run).
 * If so, the call uses the suggestion up, once, in the claim's transaction: arguments equal to the
 * suggestion (canonical JSON) are approved like a rule's match (first-wins record, carry-out,
 * history: reviewer "suggestion by <who>", noted "approved as suggested by <who>"); any other
 * arguments leave the call to the rules and people, and the suggestion is spent all the same.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import { decide } from "../decisions/decide.ts";
import { DecisionError } from "../decisions/types.ts";
import type { ConsoleRun } from "../runs/list-suspended-runs.ts";
import { canonicalJson } from "../suggestion-wording.ts";
import { openSuggestions, suggestionThatApproved } from "./store.ts";

export interface SuggestionPlan {
  id: string;
  outcome: "approved" | "other_args";
}

export type SuggestionPlanner = (
  call: { runId: string; toolCallId: string },
  run: ConsoleRun,
  pending: AgentRunToolCall,
) => SuggestionPlan | null;

/** The tool a call waits on, as suggestions name it (a delegated call: the sub-agent's tool). */
export const suggestedToolOf = (call: AgentRunToolCall) => call.path?.at(-1) ?? call.toolName ?? "";

/**
 * Reads the open suggestions for calls of `agentIds` (before the claim's transaction); null when
 * none is open. Only a suggestion whose decline is on record counts: one whose decline was refused
 * or is gone never approves anything.
 */
export async function prepareSuggestionPlans(db: Db, agentIds: string[]): Promise<SuggestionPlanner | null> {
  const open = await openSuggestions(db, [...new Set(agentIds)]);
  if (open.length === 0) return null;
  const declines = await db.toolCallDecision.findMany({
    where: { OR: open.map((suggestion) => ({ runId: suggestion.runId, toolCallId: suggestion.toolCallId })) },
    select: { runId: true, toolCallId: true, action: true, reviewer: true, state: true },
  });
  const live = open.filter((suggestion) =>
    declines.some(
      (decline) =>
        decline.runId === suggestion.runId &&
        decline.toolCallId === suggestion.toolCallId &&
        decline.action === "decline" &&
        decline.reviewer === suggestion.suggestedBy &&
        decline.state !== "released",
    ),
  );
  if (live.length === 0) return null;
  return (call, run, pending) => {
    if (!pending.requiresApproval) return null;
    const suggestion = live.find(
      (candidate) =>
        candidate.agentId === run.agentId &&
        candidate.toolName === suggestedToolOf(pending) &&
        (candidate.threadId ? candidate.threadId === run.threadId : candidate.runId === run.runId) &&
        !(candidate.runId === call.runId && candidate.toolCallId === call.toolCallId),
    );
    if (!suggestion) return null;
    return { id: suggestion.id, outcome: canonicalJson(pending.args ?? {}) === suggestion.args ? "approved" : "other_args" };
  };
}

/** What a suggestion's approval is recorded as. */
export const suggestionReviewer = (suggestedBy: string) => `suggestion by ${suggestedBy}`;
export const approvedAsSuggested = (suggestedBy: string) => `approved as suggested by ${suggestedBy}`;

/**
 * Approves a call its suggestion matched (the claim recorded it in call_rule_matches with no rule),
 * through `decide` like a rule's; false when somebody decided first, the call is gone or the agent failed.
 */
export async function decideAsSuggested(db: Db, call: { runId: string; toolCallId: string }, databaseUrl: string): Promise<boolean> {
  const suggestion = await suggestionThatApproved(db, call);
  if (!suggestion) return false;
  try {
    await decide(
      { action: "approve", runId: call.runId, toolCallId: call.toolCallId },
      {
        reviewer: suggestionReviewer(suggestion.suggestedBy),
        asAssignee: false,
        databaseUrl,
        note: approvedAsSuggested(suggestion.suggestedBy),
      },
    );
    return true;
  } catch (error) {
    if (error instanceof DecisionError) return false;
    throw error;
  }
}
