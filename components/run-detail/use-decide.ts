"use client";

/**
 * Sending a decision from the browser: the one place that calls a decision action, turns a lost
 * connection into an error like any other, and keeps the runs list in step (a finished run leaves
 * every cached page at once, and the list re-reads the server).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { createContext, useCallback, useContext } from "react";
import type { ActionResult, ClientActionError } from "@/lib/actions/result";
import type { DecisionOutcome } from "@/lib/decisions/types";
import { GONE_CODES } from "@/lib/errors";
import { forgetRun, refreshRuns } from "@/components/runs/runs-query";

export type DecisionResultOrError = { ok: true; data: DecisionOutcome } | { ok: false; error: ClientActionError };

/** Somebody (or something) decided this call before us. */
export function isAlreadyDecided(error: ClientActionError): boolean {
  return GONE_CODES.has(error.code);
}

/**
 * The keyboard's handle on a call's decision form (the review queue's shortcuts): each does what
 * the visible button does, or puts the focus where the reviewer types next.
 */
export interface DecisionControls {
  approve: () => void;
  focusApprove: () => void;
  focusReason: () => void;
  focusResume: () => void;
}

/**
 * Told each time a decision is sent from inside it: a call's decision card (tool-call-decision.tsx)
 * then leaves what it shows to the server's answer to this reviewer, not to the live stream. It may
 * return what to call once that answer is in (the queue holds the row on screen until then).
 */
export const DecisionSentContext = createContext<(() => (() => void) | void) | null>(null);

/**
 * `deferListUpdate`: the caller updates the runs list itself (the review queue keeps a decided row in
 * place for a moment so its outcome can be read, then drops it).
 */
export function useDecide({ deferListUpdate = false }: { deferListUpdate?: boolean } = {}) {
  const queryClient = useQueryClient();
  const t = useTranslations("errors");
  const sent = useContext(DecisionSentContext);
  return useCallback(
    async (send: () => Promise<ActionResult<DecisionOutcome>>): Promise<DecisionResultOrError> => {
      const answered = sent?.();
      let result: ActionResult<DecisionOutcome>;
      try {
        result = await send();
      } catch {
        return { ok: false, error: { code: "network", message: t("network") } };
      } finally {
        answered?.();
      }
      if (deferListUpdate) return result;
      if (result.ok && result.data.runState === "completed") forgetRun(queryClient, result.data.runId);
      else if (result.ok || isAlreadyDecided(result.error)) refreshRuns(queryClient);
      return result;
    },
    [queryClient, deferListUpdate, t, sent],
  );
}
