/**
 * Calls that were just decided stay in their place for a moment, so the reviewer reads what became
 * of them, even when a refresh of the list no longer has them. Pure functions over the listing DTO.
 */
import type { RunDto, ThreadDto } from "@/lib/queue/dto";
import type { Risk } from "@/lib/risk";

/** A decided call kept on screen: its run (with only that call) and where it stood. */
export interface LingeringCall {
  thread: ThreadDto;
  threadIndex: number;
  run: RunDto;
  runIndex: number;
}

/** The row id of a call (unique per run and call), as the table keys its rows. */
export function callRowId(runId: string, toolCallId: string | undefined, index: number): string {
  return `${runId}:${toolCallId ?? `#${index}`}`;
}

/** Where the call `rowId` stands in `threads`, as a snapshot to keep it on screen. */
export function snapshotCall(threads: ThreadDto[], rowId: string): LingeringCall | null {
  for (const [threadIndex, thread] of threads.entries()) {
    for (const [runIndex, run] of thread.runs.entries()) {
      const index = run.toolCalls.findIndex((call, i) => callRowId(run.runId, call.toolCallId, i) === rowId);
      if (index === -1 || !run.toolCalls[index]!.toolCallId) continue;
      return { thread, threadIndex, run: { ...run, toolCalls: [run.toolCalls[index]!] }, runIndex };
    }
  }
  return null;
}

/**
 * `threads` with every lingering call the server no longer lists put back where it was. Decided calls
 * no longer count as pending: a thread's count (and its overdue count, by `overdue`) leaves out
 * those the server still lists until its next read, and a thread the server no longer lists at all
 * is shown with none.
 *
 * `held`: calls this tab is deciding right now, kept as they were when the decision was sent. A read
 * made before the answer was handled (use-lingering.ts) no longer lists them: they are put back in
 * their place, counts untouched, so the row is still there to show the answer.
 */
export function withLingering(
  threads: ThreadDto[],
  lingering: ReadonlyMap<string, LingeringCall>,
  overdue: (suspendedAt: string, risk?: Risk) => boolean,
  held: ReadonlyMap<string, LingeringCall> = new Map(),
): ThreadDto[] {
  if (lingering.size === 0 && held.size === 0) return threads;
  const listed = new Set(threads.flatMap((t) => t.runs.flatMap((r) => r.toolCalls.map((c, i) => callRowId(r.runId, c.toolCallId, i)))));
  let result = threads;
  const replace = (at: number, thread: ThreadDto) => (result = result.map((t, i) => (i === at ? thread : t)));
  const putBack = (kept: LingeringCall) => {
    const at = result.findIndex((thread) => thread.threadKey === kept.thread.threadKey);
    if (at === -1) {
      const thread = { ...kept.thread, calls: 0, overdueCalls: 0, runs: [kept.run] };
      result = [...result.slice(0, kept.threadIndex), thread, ...result.slice(kept.threadIndex)];
    } else {
      const thread = result[at]!;
      replace(at, { ...thread, runs: [...thread.runs.slice(0, kept.runIndex), kept.run, ...thread.runs.slice(kept.runIndex)] });
    }
  };
  for (const [rowId, kept] of lingering) {
    if (!listed.has(rowId)) {
      putBack(kept);
      continue;
    }
    const at = result.findIndex((thread) => thread.threadKey === kept.thread.threadKey);
    const thread = result[at]!;
    const wasOverdue = overdue(kept.run.suspendedAt, kept.run.toolCalls[0]?.risk) ? 1 : 0;
    replace(at, { ...thread, calls: Math.max(0, thread.calls - 1), overdueCalls: Math.max(0, thread.overdueCalls - wasOverdue) });
  }
  for (const [rowId, kept] of held) {
    if (!lingering.has(rowId) && !listed.has(rowId)) putBack(kept);
  }
  return result;
}
