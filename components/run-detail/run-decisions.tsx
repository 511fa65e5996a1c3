"use client";

/**
 * What the run page has learned about its calls since it was rendered: a decision this reviewer
 * made, or one somebody else made first (an `already_decided` refusal, or the live stream: `live`),
 * the calls somebody else is deciding right now, and the calls the run still waits on (both from the
 * stream). The heading reads it, so it stops saying a call waits once it does not.
 */
import { createContext, useCallback, useContext, useMemo, useState } from "react";
import type { DecisionOutcome, InFlightDecision, PriorDecision } from "@/lib/decisions/types";

export type LearnedDecision =
  | { by: "you"; outcome: DecisionOutcome }
  /** Decided before us; who and when when the server said so. `live`: told by the stream, not by a refusal. */
  | { by: "someone-else"; prior?: PriorDecision; live?: true };

interface RunDecisions {
  learned: Record<string, LearnedDecision>;
  learn: (toolCallId: string, decision: LearnedDecision) => void;
  /**
   * Calls a decision is being carried out on, as the live stream last said; null until it said
   * anything (what the page was rendered with holds until then).
   */
  beingDecided: Record<string, InFlightDecision> | null;
  setBeingDecided: (calls: Record<string, InFlightDecision>) => void;
  /**
   * The calls the run waits on now, as the live stream last found after the run moved (null until
   * then): a call of the page not among them that nobody decided here went on without the console.
   */
  waitingNow: ReadonlySet<string> | null;
  setWaitingNow: (calls: ReadonlySet<string>) => void;
  /** Calls this reviewer sent a decision from: their cards show the server's answer, nothing else. */
  sent: ReadonlySet<string>;
  markSent: (toolCallId: string) => void;
  /** Whether the page's live stream is open: what is shown then follows on its own. */
  live: boolean;
  setLive: (live: boolean) => void;
}

const NONE: ReadonlySet<string> = new Set();

const Context = createContext<RunDecisions>({
  learned: {},
  learn: () => {},
  beingDecided: null,
  setBeingDecided: () => {},
  waitingNow: null,
  setWaitingNow: () => {},
  sent: NONE,
  markSent: () => {},
  live: false,
  setLive: () => {},
});

export function RunDecisionsProvider({ children }: { children: React.ReactNode }) {
  const [learned, setLearned] = useState<Record<string, LearnedDecision>>({});
  const [beingDecided, setBeingDecided] = useState<Record<string, InFlightDecision> | null>(null);
  const [waitingNow, setWaitingNow] = useState<ReadonlySet<string> | null>(null);
  const [sent, setSent] = useState<ReadonlySet<string>>(NONE);
  const [live, setLive] = useState(false);
  const markSent = useCallback(
    (toolCallId: string) => setSent((current) => (current.has(toolCallId) ? current : new Set(current).add(toolCallId))),
    [],
  );
  const learn = useCallback(
    // What this reviewer learned from their own decision stays (theirs, or the refusal naming who won):
    // the stream's later word about the same call adds nothing.
    (toolCallId: string, decision: LearnedDecision) =>
      setLearned((current) => {
        const known = current[toolCallId];
        if (known?.by === "you" || (known && decision.by === "someone-else" && decision.live && !("live" in known && known.live))) {
          return current;
        }
        return { ...current, [toolCallId]: decision };
      }),
    [],
  );
  const value = useMemo(
    () => ({ learned, learn, beingDecided, setBeingDecided, waitingNow, setWaitingNow, sent, markSent, live, setLive }),
    [learned, learn, beingDecided, waitingNow, sent, markSent, live],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useRunDecisions(): RunDecisions {
  return useContext(Context);
}

/**
 * Whether a call shown on the page no longer waits, as far as the live stream knows: the run went on
 * past it (continued outside the console, or ended). What the console decided itself, or is
 * deciding, is said instead where it is known: the caller asks this last.
 */
export function noLongerWaits(waitingNow: ReadonlySet<string> | null, toolCallId: string | undefined): boolean {
  return waitingNow !== null && toolCallId !== undefined && !waitingNow.has(toolCallId);
}
