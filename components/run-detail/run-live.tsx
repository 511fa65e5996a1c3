"use client";

/**
 * Keeps a run's page live: it holds the live stream (as the runs page does, components/runs/
 * use-live-queue.ts) and, when the stream says a call of this run was decided, claimed or released,
 * reads where its calls stand (readCallDecisions) so a colleague's decision shows in place, without a
 * reload: "being decided by Ada", then "Approved by Ada at 12:03". When it says the run moved (it left
 * the queue, or waits on a call again) it reads which calls the run waits on now (readRun) first: a
 * call of the page the run went on past, and nobody here decided, then says it no longer waits
 * (continued outside the console, or the run ended); a call that waits and the page does not show
 * yet makes the page read itself again (router.refresh), unless that would take away a card this
 * reviewer sent a decision from. The stream also carries presence (who else has a call of this page
 * open, components/runs/presence.tsx). A card this reviewer decided from keeps the server's answer to
 * them, which knows more (the agent's answer).
 */
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef } from "react";
import { readCallDecisions } from "@/lib/actions/read-call-decisions";
import { readRun } from "@/lib/actions/read-run";
import type { InFlightDecision } from "@/lib/decisions/types";
import type { QueueChangeDto } from "@/lib/live/types";
import { useLiveQueue } from "@/components/runs/use-live-queue";
import { useRunDecisions } from "./run-decisions";

const CARRIED_OUT = new Set(["applied", "failed"]);
/** The run left the queue (ran on, ended, deleted), or one of its calls did; or it waits on a call. */
const MOVES_RUN = new Set(["left", "waiting"]);

export function RunLive({ runId, since, shown }: { runId: string; since: number | null; shown: string[] }) {
  const { learn, setBeingDecided, setWaitingNow, sent, setLive } = useRunDecisions();
  const router = useRouter();
  const reading = useRef(0);
  // Whether the run moved since its calls were last read (a change that says so, or one the stream may have missed).
  const runUnread = useRef(false);
  const page = useRef({ shown, sent });
  page.current = { shown, sent };
  const concerns = useCallback(
    (change: QueueChangeDto) => change.runId === runId && (change.kind.startsWith("decision.") || MOVES_RUN.has(change.kind)),
    [runId],
  );
  const refresh = useCallback(
    async (changes: QueueChangeDto[] | null) => {
      if (!changes || changes.some((change) => MOVES_RUN.has(change.kind))) runUnread.current = true;
      const turn = ++reading.current;
      const readsRun = runUnread.current;
      // The run before its decisions: one the console continued had its decision recorded before it left.
      const run = readsRun ? await readRun({ runId, countAsOpened: false }).catch(() => null) : null;
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
      if (!readsRun || !run?.ok) return;
      runUnread.current = false;
      const waiting = new Set((run.data?.toolCalls ?? []).flatMap((call) => (call.toolCallId ? [call.toolCallId] : [])));
      setWaitingNow(waiting);
      // A call the page does not show waits now: the page reads itself again, keeping the cards of the
      // calls that still wait as they are; not while that would drop a card this reviewer decided from.
      const { shown: onPage, sent: decidedHere } = page.current;
      const unseen = [...waiting].some((toolCallId) => !onPage.includes(toolCallId));
      if (unseen && [...decidedHere].every((toolCallId) => waiting.has(toolCallId))) router.refresh();
    },
    [runId, learn, setBeingDecided, setWaitingNow, router],
  );
  const { live } = useLiveQueue(concerns, (changes) => void refresh(changes), since);
  useEffect(() => setLive(live), [live, setLive]);
  return null;
}
