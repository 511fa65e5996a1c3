"use client";

/**
 * The sentence under a run's title: what waits, or, once the page learned it, what became of each
 * call ("Approved by you — the agent continued and finished the run", "Declined by rita@… at …").
 */
import { DECIDED, DECIDING, type InFlightDecision, type MarkedExpiry } from "@/lib/decisions/types";
import { continuerOf } from "@agent-approvals/mastra-store/run-kinds";
import { WaitingTime } from "@/components/relative-time";
import { formatTimestamp } from "@/components/time";
import { useRunDecisions, type LearnedDecision } from "./run-decisions";

export interface HeadlineCall {
  toolCallId?: string;
  toolName: string;
  inFlight?: InFlightDecision;
  markedExpired?: MarkedExpiry;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What became of one call, as a sentence without its tool's name. */
export function learnedSentence(decision: LearnedDecision): string {
  if (decision.by === "you") {
    const { action, runState, agentId } = decision.outcome;
    return `${capitalized(DECIDED[action])} by you — ${continuerOf(agentId)} continued${runState === "completed" ? " and finished the run" : " and waits for another decision on this run"}.`;
  }
  const prior = decision.prior;
  if (!prior) return "Decided elsewhere (another reviewer, or the run finished) — nothing left to decide here.";
  const when = prior.decidedAt ? ` at ${formatTimestamp(prior.decidedAt)}` : "";
  return `${capitalized(DECIDED[prior.action])} by ${prior.reviewer}${when} — nothing left to decide here.`;
}

/** A call that is not waiting for a reviewer although its run still is: being decided, or marked expired. */
function heldSentence(call: HeadlineCall): string {
  if (call.markedExpired) {
    return `Expired at ${formatTimestamp(call.markedExpired.expiredAt)} (marked by its expiry rule; the agent was not told) — nothing left to decide here.`;
  }
  const inFlight = call.inFlight!;
  return `Being decided: ${inFlight.reviewer} is ${DECIDING[inFlight.action]} it (since ${formatTimestamp(inFlight.decidedAt)}).`;
}

const held = (call: HeadlineCall) => Boolean(call.inFlight || call.markedExpired);

export function RunHeadline({ calls, suspendedAt }: { calls: HeadlineCall[]; suspendedAt: string }) {
  const { learned } = useRunDecisions();
  const known = calls.map((call) => (call.toolCallId ? learned[call.toolCallId] : undefined));
  const waiting = calls.filter((call, index) => !known[index] && !held(call)).length;

  if (known.every((decision) => !decision) && !calls.some(held)) {
    return (
      <p className="text-sm text-neutral-500">
        {calls.length === 1 ? "One tool call waits" : `${calls.length} tool calls wait`} for a reviewer, for{" "}
        <WaitingTime iso={suspendedAt} />.
      </p>
    );
  }
  if (calls.length === 1) {
    return (
      <p className="text-sm font-medium text-neutral-800" aria-live="polite">
        {known[0] ? learnedSentence(known[0]) : heldSentence(calls[0]!)}
      </p>
    );
  }
  return (
    <div className="text-sm text-neutral-700" aria-live="polite">
      <p>
        {waiting === 0
          ? "No tool call of this run waits for you anymore."
          : `${waiting} of ${calls.length} tool calls wait for a reviewer.`}
      </p>
      <ul className="mt-1 list-disc pl-5">
        {calls.map((call, index) => {
          const decision = known[index];
          if (!decision && !held(call)) return null;
          return (
            <li key={call.toolCallId ?? index}>
              <span className="font-mono">{call.toolName}</span>: {decision ? learnedSentence(decision) : heldSentence(call)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
