/**
 * Whether a change from the live stream concerns what the runs page shows, so that it refetches only
 * then. A change outside the page's filters never does. Inside them, a call that started waiting,
 * left, or was rated may add to or reorder the page, so it always does; a decision, assignment or
 * approval only when its run (or, for a thread's assignment, its thread) is on the page, or the page
 * is filtered by assignee.
 */
import type { RawRunsParams } from "@/lib/list-params";
import type { QueueChangeDto } from "@/lib/live/types";
import type { RunsViewDto } from "@/lib/queue/dto";

const RESHAPES = new Set(["waiting", "left", "rated"]);

function outside(filter: string | undefined, value: string | null): boolean {
  return filter !== undefined && value !== null && value !== filter;
}

export function concernsView(change: QueueChangeDto, params: RawRunsParams, view: RunsViewDto | undefined): boolean {
  // Who has a call open changes no row: the page shows it from the event itself (presence.tsx).
  if (change.kind === "presence") return false;
  if (
    outside(params.resourceId, change.resourceId) ||
    outside(params.agentId, change.agentId) ||
    outside(params.threadId, change.threadId)
  ) {
    return false;
  }
  if (params.noThread && change.threadId) return false;
  if (RESHAPES.has(change.kind) || !view) return true;
  if (change.kind === "assigned" && params.assigned) return true;
  return view.threads.some(
    (thread) =>
      (change.runId === null && change.threadId !== null && thread.threadKey === change.threadId) ||
      thread.runs.some((run) => run.runId === change.runId),
  );
}
