/**
 * Calls the live stream says somebody else is deciding: the queue drops them the moment the decision
 * is recorded, instead of showing "being decided by …" until the decision has been carried out (the
 * agent's run, which takes a while under load) and the list read again. Pure functions over the
 * listing DTO; use-runs-view.ts keeps the state.
 *
 * A call stays hidden while the list the table holds was read before the stream's word (it cannot know
 * of the decision yet), and after that while the server still lists it as being decided. A list read
 * after the word is otherwise the truth: a call whose decision was released, failed or marked it
 * expired is listed without a decision in flight, and shows again. A reader who loads the page while
 * a decision is in flight has no word from the stream, and sees "being decided by …" as before.
 */
import type { QueueChangeDto } from "@/lib/live/types";
import type { ThreadDto } from "@/lib/queue/dto";
import { callRowId } from "./runs-table-lingering";
import { isOverdue, targetMinutesOf } from "./runs-table-model";
import type { CachedRunsView } from "./runs-query";

/** Row id → when (performance.now()) the stream said the call's decision was recorded or carried out. */
export type SettlingCalls = ReadonlyMap<string, number>;

/** Words of the stream beyond this many are forgotten, oldest first (a list read since has the truth). */
const REMEMBERED = 500;
const EMPTY: SettlingCalls = new Map();

export function noSettlingCalls(): SettlingCalls {
  return EMPTY;
}

/** `settling` after `change`; the same map when the change says nothing of a call's decision. */
export function settleFrom(settling: SettlingCalls, change: QueueChangeDto, now: number): SettlingCalls {
  if (!change.kind.startsWith("decision.") || !change.runId || !change.toolCallId) return settling;
  const id = callRowId(change.runId, change.toolCallId, 0);
  const next = new Map(settling);
  next.delete(id);
  // Released: the call waits again, and the list read that follows shows it.
  if (change.kind !== "decision.released") next.set(id, now);
  while (next.size > REMEMBERED) next.delete(next.keys().next().value!);
  return next;
}

/**
 * Whether a change only tells the table what it shows already: a call it hides (see `withoutSettling`)
 * was claimed or is being carried out. Reading the list again would only bring "being decided by".
 */
export function alreadyShown(
  settling: SettlingCalls,
  change: QueueChangeDto,
  keep: (runId: string, toolCallId: string) => boolean,
): boolean {
  return (
    (change.kind === "decision.recorded" || change.kind === "decision.applying") &&
    change.runId !== null &&
    change.toolCallId !== null &&
    settling.has(callRowId(change.runId, change.toolCallId, 0)) &&
    !keep(change.runId, change.toolCallId)
  );
}

/**
 * Whether a change can wait for the page's throttled read (read-scheduler.ts), though it is of a run
 * the page shows: the decision of a call the table already hides was carried out, or a run whose
 * every call it holds is hidden left the queue. Nothing the reader sees changes but the totals and
 * what a later read brings onto the page, so the hundred tabs that hid the call need not all read
 * the list at the same moment. A call this tab keeps (`keep`) shows what the server says: not this.
 */
export function changesOnlyHidden(
  settling: SettlingCalls,
  change: QueueChangeDto,
  view: CachedRunsView | undefined,
  keep: (runId: string, toolCallId: string) => boolean,
): boolean {
  if (!view || change.runId === null || settling.size === 0) return false;
  const hidden = (toolCallId: string | undefined) =>
    toolCallId !== undefined && settling.has(callRowId(change.runId!, toolCallId, 0)) && !keep(change.runId!, toolCallId);
  if (change.kind === "decision.applied") return change.toolCallId !== null && hidden(change.toolCallId);
  if (change.kind !== "left") return false;
  const calls = view.threads.flatMap((thread) => thread.runs.filter((run) => run.runId === change.runId).flatMap((run) => run.toolCalls));
  return calls.length > 0 && calls.every((call) => hidden(call.toolCallId));
}

/**
 * `view` without the calls `settling` hides, its counts lowered to match. `keep` names calls this tab
 * is deciding or has open: those stay, and show what the server says of them.
 */
export function withoutSettling(
  view: CachedRunsView,
  settling: SettlingCalls,
  keep: (runId: string, toolCallId: string) => boolean,
  now = Date.now(),
): CachedRunsView {
  if (settling.size === 0) return view;
  const readAt = view.readAt ?? Number.NEGATIVE_INFINITY;
  let hiddenCalls = 0;
  let goneThreads = 0;
  const threads: ThreadDto[] = [];
  for (const thread of view.threads) {
    let hidden = 0;
    let overdue = 0;
    const runs = thread.runs.flatMap((run) => {
      const toolCalls = run.toolCalls.filter((call) => {
        const said = call.toolCallId ? settling.get(callRowId(run.runId, call.toolCallId, 0)) : undefined;
        if (said === undefined || keep(run.runId, call.toolCallId!)) return true;
        if (readAt > said && !call.inFlight) return true;
        hidden++;
        if (isOverdue(run.suspendedAt, targetMinutesOf(call.risk, view), now)) overdue++;
        return false;
      });
      if (toolCalls.length === run.toolCalls.length) return [run];
      return toolCalls.length === 0 ? [] : [{ ...run, toolCalls }];
    });
    if (hidden === 0) {
      threads.push(thread);
      continue;
    }
    hiddenCalls += hidden;
    const calls = Math.max(0, thread.calls - hidden);
    if (calls === 0 && runs.length === 0) {
      goneThreads++;
      continue;
    }
    threads.push({ ...thread, runs, calls, overdueCalls: Math.max(0, thread.overdueCalls - overdue) });
  }
  if (hiddenCalls === 0) return view;
  return {
    ...view,
    threads,
    callTotal: Math.max(0, view.callTotal - hiddenCalls),
    threadTotal: Math.max(0, view.threadTotal - goneThreads),
  };
}
