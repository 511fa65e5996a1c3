"use client";

import { OpenByBadge, useOpenCall } from "@/components/runs/presence";

/** On a run's page, each waiting call is open: others see it, and this shows who else has it open. */
export function CallPresence({ runId, toolCallId }: { runId: string; toolCallId: string }) {
  useOpenCall(runId, toolCallId);
  return <OpenByBadge runId={runId} toolCallId={toolCallId} />;
}
