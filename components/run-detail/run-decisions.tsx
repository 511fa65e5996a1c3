"use client";

/**
 * What the run page has learned about its calls since it was rendered: a decision this reviewer
 * made, or one somebody else made first (an `already_decided` refusal). The heading reads it, so it
 * stops saying a call waits once it does not.
 */
import { createContext, useCallback, useContext, useMemo, useState } from "react";
import type { DecisionOutcome, PriorDecision } from "@/lib/decisions/types";

export type LearnedDecision =
  | { by: "you"; outcome: DecisionOutcome }
  /** Decided before us; who and when when the server said so. */
  | { by: "someone-else"; prior?: PriorDecision };

interface RunDecisions {
  learned: Record<string, LearnedDecision>;
  learn: (toolCallId: string, decision: LearnedDecision) => void;
}

const Context = createContext<RunDecisions>({ learned: {}, learn: () => {} });

export function RunDecisionsProvider({ children }: { children: React.ReactNode }) {
  const [learned, setLearned] = useState<Record<string, LearnedDecision>>({});
  const learn = useCallback(
    (toolCallId: string, decision: LearnedDecision) => setLearned((current) => ({ ...current, [toolCallId]: decision })),
    [],
  );
  const value = useMemo(() => ({ learned, learn }), [learned, learn]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useRunDecisions(): RunDecisions {
  return useContext(Context);
}
