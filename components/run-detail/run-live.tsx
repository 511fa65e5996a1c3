"use client";

/**
 * Keeps a run's page live: it holds the live stream (as the runs page does, components/runs/
 * use-live-queue.ts) and, when the stream says a call of this run was decided, claimed or released,
 * reads where its calls stand (readCallDecisions) so a colleague's decision shows in place, without a
 * reload: "being decided by Ada", then "Approved by Ada at 12:03". The stream also carries presence
 * (who else has a call of this page open, components/runs/presence.tsx). A card this reviewer
 * decided from keeps the server's answer to them, which knows more (the agent's answer).
 */
import { useCallback, useEffect, useRef } from "react";
import { readCallDecisions } from "@/lib/actions/read-call-decisions";
import type { InFlightDecision } from "@/lib/decisions/types";
import type { QueueChangeDto } from "@/lib/live/types";
import { useLiveQueue } from "@/components/runs/use-live-queue";
import { useRunDecisions } from "./run-decisions";

const CARRIED_OUT = new Set(["applied", "failed"]);

export function RunLive({ runId, since }: { runId: string; since: number | null }) {
  const { learn, setBeingDecided, setLive } = useRunDecisions();
  const reading = useRef(0);
  const concerns = useCallback((change: QueueChangeDto) => change.runId === runId && change.kind.startsWith("decision."), [runId]);
  const refresh = useCallback(async () => {
    const turn = ++reading.current;
    const result = await readCallDecisions({ runId }).catch(() => null);
    // A later read is under way (changes came on): its answer is the one to show.
    if (!result?.ok || turn !== reading.current) return;
    const claimed: Record<string, InFlightDecision> = {};
    // This reviewer's own decisions too (another tab's): the card they were sent from shows its own answer.
    for (const { toolCallId, decision } of result.data) {
      if (CARRIED_OUT.has(decision.state)) learn(toolCallId, { by: "someone-else", prior: decision, live: true });
      else claimed[toolCallId] = { reviewer: decision.reviewer, action: decision.action, decidedAt: decision.decidedAt };
    }
    setBeingDecided(claimed);
  }, [runId, learn, setBeingDecided]);
  const { live } = useLiveQueue(concerns, () => void refresh(), since);
  useEffect(() => setLive(live), [live, setLive]);
  return null;
}
