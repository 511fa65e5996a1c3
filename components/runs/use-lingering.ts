"use client";

/**
 * What became of the calls decided from the queue: a note in their row ("Approved — …", "Already
 * decided by …", "Failed: …"), the decided ones kept on screen for a moment, then dropped from
 * every cached page while the list re-reads the server. From the moment a decision is sent until its
 * answer is handled, its rows are held on screen too: a row gone takes its outcome with it, and the
 * stream's word of that very decision has the list read. Next.js runs server actions one at a time
 * today, which puts that read behind the decision's answer; the hold does not rely on it.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ThreadDto } from "@/lib/queue/dto";
import type { Risk } from "@/lib/risk";
import { forgetRun, refreshRuns, runDetailQueryKey } from "./runs-query";
import { snapshotCall, withLingering, type LingeringCall } from "./runs-table-lingering";
import { sendingFromHere } from "./sending-here";

/** How long a decided call stays in its row before it leaves the list. */
export const LINGER_MS = 1_500;

export interface RowNote {
  tone: "success" | "warning" | "error";
  text: string;
}

export interface Leaving {
  rowId: string;
  runId: string;
  /** The run finished: drop it from the cached pages at once instead of waiting for the refresh. */
  runFinished: boolean;
}

/** `overdue`: whether a call waiting since then is past the review target (a decided one no longer counts). */
export function useLingering(threads: ThreadDto[], overdue: (suspendedAt: string, risk?: Risk) => boolean) {
  const queryClient = useQueryClient();
  const [lingering, setLingering] = useState<ReadonlyMap<string, LingeringCall>>(() => new Map());
  const [held, setHeld] = useState<ReadonlyMap<string, LingeringCall>>(() => new Map());
  const [notes, setNotes] = useState<ReadonlyMap<string, RowNote>>(() => new Map());
  const shownThreads = useMemo(() => withLingering(threads, lingering, overdue, held), [threads, lingering, overdue, held]);
  const latest = useRef(shownThreads);
  latest.current = shownThreads;
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const note = useCallback((entries: Array<[string, RowNote]>) => {
    setNotes((previous) => new Map([...previous, ...entries]));
  }, []);

  /** Keeps these decided calls on screen for LINGER_MS, then lets them leave. */
  const letLeave = useCallback(
    (leaving: Leaving[], ms = LINGER_MS) => {
      if (leaving.length === 0) return;
      const kept = leaving.flatMap(({ rowId }) => {
        const snapshot = snapshotCall(latest.current, rowId);
        return snapshot ? [[rowId, snapshot] as const] : [];
      });
      setLingering((previous) => new Map([...previous, ...kept]));
      const rowIds = new Set(leaving.map((call) => call.rowId));
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        const without = <T>(map: ReadonlyMap<string, T>) => new Map([...map].filter(([id]) => !rowIds.has(id)));
        setLingering(without);
        setNotes(without);
        for (const call of leaving) {
          queryClient.removeQueries({ queryKey: runDetailQueryKey(call.runId) });
          if (call.runFinished) forgetRun(queryClient, call.runId);
        }
        refreshRuns(queryClient);
      }, ms);
      timers.current.add(timer);
    },
    [queryClient],
  );

  /**
   * Holds these rows where they are while this tab's decision on them is on its way; returns the
   * release, to call once the answer is in. Held rows still count, and stay selectable and focused:
   * nothing on screen changes unless a read drops them early.
   */
  const hold = useCallback((rowIds: string[]): (() => void) => {
    const unmark = sendingFromHere(rowIds);
    const kept = new Map(
      rowIds.flatMap((rowId) => {
        const snapshot = snapshotCall(latest.current, rowId);
        return snapshot ? [[rowId, snapshot] as const] : [];
      }),
    );
    setHeld((previous) => new Map([...previous, ...kept]));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      unmark();
      // Let go a task later: the answer's own handlers run in this task's promise callbacks, so a row
      // they settle is lingering by then, with no render in between that could drop it.
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        setHeld((previous) => new Map([...previous].filter(([rowId, snapshot]) => kept.get(rowId) !== snapshot)));
      }, 0);
      timers.current.add(timer);
    };
  }, []);

  return { shownThreads, hold, lingeringIds: lingering as ReadonlyMap<string, unknown>, notes, note, letLeave };
}
