/**
 * Whether a change from the live stream concerns what the runs page shows, so that it refetches only
 * then. A change outside the page's filters never does. Inside them, anything of a run or thread on
 * the page does, at once; a call that started waiting, left, or was rated elsewhere may add to or
 * reorder the page and moves its totals, so it does too, throttled; a decision, assignment or
 * approval elsewhere does not, but an assignment when the page is filtered by assignee.
 */
import type { RawRunsParams } from "@/lib/list-params";
import type { QueueChangeDto } from "@/lib/live/types";
import type { RunsViewDto } from "@/lib/queue/dto";

const RESHAPES = new Set(["waiting", "left", "rated"]);

/**
 * Whether the page reads its list again for a change: "now" for one that touches what it shows;
 * "elsewhere" for one that may only move its totals or what a later read brings in (read soon, but
 * at most every so often, use-live-queue.ts: with a hundred tabs open, every decision anywhere would
 * otherwise be a hundred reads of the list); false for one that changes nothing it shows.
 */
export type Concern = "now" | "elsewhere" | false;

function outside(filter: string | undefined, value: string | null): boolean {
  return filter !== undefined && value !== null && value !== filter;
}

export function concernsView(change: QueueChangeDto, params: RawRunsParams, view: RunsViewDto | undefined): Concern {
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
  if (!view) return "now";
  const shown = view.threads.some(
    (thread) => (change.threadId !== null && thread.threadKey === change.threadId) || thread.runs.some((run) => run.runId === change.runId),
  );
  if (shown) return "now";
  if (RESHAPES.has(change.kind)) return "elsewhere";
  return change.kind === "assigned" && params.assigned ? "now" : false;
}
