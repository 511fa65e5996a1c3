"use client";

/**
 * What became of the calls decided from the queue: a note in their row ("Approved — …", "Already
 * decided by …", "Failed: …"), the decided ones kept on screen for a moment, then dropped from
 * every cached page while the list re-reads the server.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ThreadDto } from "@/lib/queue/dto";
import type { Risk } from "@/lib/risk";
import { forgetRun, refreshRuns, runDetailQueryKey } from "./runs-query";
import { snapshotCall, withLingering, type LingeringCall } from "./runs-table-lingering";

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
  const [notes, setNotes] = useState<ReadonlyMap<string, RowNote>>(() => new Map());
  const shownThreads = useMemo(() => withLingering(threads, lingering, overdue), [threads, lingering, overdue]);
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

  return { shownThreads, lingeringIds: lingering as ReadonlyMap<string, unknown>, notes, note, letLeave };
}
