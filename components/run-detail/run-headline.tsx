"use client";

/**
 * The sentence under a run's title: what waits, or, once the page learned it, what became of each
 * call ("Approved by you — the agent continued and finished the run", "Declined by rita@… at …",
 * "No longer waiting: the run was continued outside this console…").
 */
import { useTranslations } from "next-intl";
import type { InFlightDecision, MarkedExpiry } from "@/lib/decisions/types";
import { continuerOf } from "@agent-approvals/mastra-store/run-kinds";
import { WaitingTime } from "@/components/relative-time";
import { useTimestamp } from "@/components/time";
import { noLongerWaits, useRunDecisions, type LearnedDecision } from "./run-decisions";

export interface HeadlineCall {
  toolCallId?: string;
  toolName: string;
  inFlight?: InFlightDecision;
  markedExpired?: MarkedExpiry;
}

/** The sentences of the headline, in the reader's language (a call's card says the same of itself). */
export function useDecisionSentences() {
  const t = useTranslations("run");
  const timestamp = useTimestamp();
  return {
    /** What became of one call, as a sentence without its tool's name. */
    learned(decision: LearnedDecision): string {
      if (decision.by === "you") {
        const { action, runState, agentId } = decision.outcome;
        const continuer = continuerOf(agentId) === "the workflow" ? "workflow" : "agent";
        return t("decidedByYou", { action, continuer, finished: runState === "completed" ? "yes" : "no" });
      }
      const prior = decision.prior;
      if (!prior) return t("decidedElsewhere");
      return prior.decidedAt
        ? t("decidedByAt", { action: prior.action, reviewer: prior.reviewer, time: timestamp(prior.decidedAt) })
        : t("decidedBy", { action: prior.action, reviewer: prior.reviewer });
    },
    /** A call the run went on past without the console: continued elsewhere, or the run ended. */
    left(): string {
      return t("noLongerWaiting");
    },
    /** A call that is not waiting for a reviewer although its run still is: being decided, or marked expired. */
    held(call: HeadlineCall): string {
      if (call.markedExpired) return t("expiredAt", { time: timestamp(call.markedExpired.expiredAt) });
      const inFlight = call.inFlight!;
      return t("beingDecided", { reviewer: inFlight.reviewer, action: inFlight.action, time: timestamp(inFlight.decidedAt) });
    },
  };
}

const held = (call: HeadlineCall) => Boolean(call.inFlight || call.markedExpired);

export function RunHeadline({ calls: rendered, suspendedAt }: { calls: HeadlineCall[]; suspendedAt: string }) {
  const { learned, beingDecided, waitingNow } = useRunDecisions();
  // Once the live stream has said who is deciding what, that replaces what the page was rendered with.
  const calls = beingDecided
    ? rendered.map((call) => (call.toolCallId ? { ...call, inFlight: beingDecided[call.toolCallId] } : call))
    : rendered;
  const t = useTranslations("run");
  const sentences = useDecisionSentences();
  // What became of each call, as its card says it; null: it waits.
  const became = calls.map((call) => {
    const known = call.toolCallId ? learned[call.toolCallId] : undefined;
    if (known) return sentences.learned(known);
    if (held(call)) return sentences.held(call);
    return noLongerWaits(waitingNow, call.toolCallId) ? sentences.left() : null;
  });
  const waiting = became.filter((sentence) => sentence === null).length;

  if (waiting === calls.length) {
    return (
      <p className="text-sm text-neutral-500">
        {t("waitsFor", { count: calls.length })} <WaitingTime iso={suspendedAt} />.
      </p>
    );
  }
  if (calls.length === 1) {
    return (
      <p className="text-sm font-medium text-neutral-800" aria-live="polite">
        {became[0]}
      </p>
    );
  }
  return (
    <div className="text-sm text-neutral-700" aria-live="polite">
      <p>{waiting === 0 ? t("noneWaits") : t("someWait", { waiting, count: calls.length })}</p>
      <ul className="mt-1 list-disc pl-5">
        {calls.map((call, index) =>
          became[index] === null ? null : (
            <li key={call.toolCallId ?? index}>
              <span className="font-mono">{call.toolName}</span>: {became[index]}
            </li>
          ),
        )}
      </ul>
    </div>
  );
}
