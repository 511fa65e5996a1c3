"use client";

import { useTranslations } from "next-intl";
import { queuedCallsLeft } from "./queued-calls";
import { useRunDecisions } from "./run-decisions";

/** Why a queued call's buttons are off: not reached yet, or (once the run moved on without it) nothing left to decide. */
export function QueuedCallReason({ id, stepCalls, reason }: { id: string; stepCalls: string[]; reason: string }) {
  const { waitingNow } = useRunDecisions();
  const t = useTranslations("run");
  const left = queuedCallsLeft(waitingNow, stepCalls);
  return (
    <p id={id} className="text-sm text-neutral-700" role={left ? "status" : undefined} data-testid={left ? "queued-call-left" : undefined}>
      {left ? t("noLongerWaiting") : reason}
    </p>
  );
}
