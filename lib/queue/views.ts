/**
 * The review queue as the console's pages and actions show it: pages of threads, the runs listing
 * (GET /api/runs) and the run detail
 * (lib/runs) with each pending call's decision state (lib/decisions), as DTOs for the browser.
 */
import { cutExcerpt } from "@agent-approvals/mastra-store";
import { assigneeOf, findAssignees, findAssigneesWithThreads, type Assignee } from "../assignments/assignments.ts";
import { exclusiveAgents } from "../assignments/review-settings.ts";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { findCallDecisionStates, findLatestDecisionOfRun } from "../decisions/call-states.ts";
import { lastOutsideDecisionOfRun } from "../decisions/outside.ts";
import { workflowStepJsonSchema } from "../decisions/owners.ts";
import type { PriorDecision } from "../decisions/types.ts";
import { listSuspendedRuns } from "../runs/list-suspended-runs.ts";
import { listThreads, type ThreadListing } from "../runs/list-threads.ts";
import { callKey, callsDecidedByItself } from "../rules/deciding-by-itself.ts";
import { CALLS_PER_THREAD, MAX_CALLS_PER_THREAD } from "../runs/validations.ts";
import {
  toRunDetailDto,
  toRunDto,
  type AssigneeDto,
  type QueuePageDto,
  type RunDetailDto,
  type RunDto,
  type RunsPageDto,
  type RunsViewDto,
} from "./dto.ts";
import { overdueCutoff, reviewSlaMinutes, riskCutoffs, riskTargetMinutes } from "./review-target.ts";
import { withRisks } from "./risks.ts";
import { getSuspendedRun } from "../runs/run-detail.ts";
import { expiryTimes } from "./expiry-times.ts";
import type { QueueQuery, RunsQuery, SanitizedQuery } from "../search-params.ts";

export async function getRunsPage(query: RunsQuery): Promise<RunsPageDto> {
  const { runs, total } = await listSuspendedRuns({
    agentId: query.agentId,
    resourceId: query.resourceId,
    threadId: query.threadId,
    fromDate: query.from,
    toDate: query.to,
    perPage: query.perPage,
    page: query.page - 1,
  });
  const states = await findCallDecisionStates(runs.map((run) => run.runId));
  return {
    runs: runs.map((run) => toRunDto(run, states)),
    total,
    page: query.page,
    perPage: query.perPage,
    pageCount: Math.max(1, Math.ceil(total / query.perPage)),
  };
}

/**
 * A page of the review queue: whole threads with their matching calls, each call's decision state
 * and assignee. `viewerId` is whose "Assigned to me" `assigned=me` means.
 */
export async function getQueuePage(query: QueueQuery, viewerId?: string): Promise<QueuePageDto> {
  const slaMinutes = reviewSlaMinutes();
  const riskTargets = riskTargetMinutes();
  const now = new Date();
  const listing = await listThreads({
    agentId: query.agentId,
    resourceId: query.resourceId,
    threadId: query.threadId,
    fromDate: query.from,
    toDate: query.to,
    onlyOverdue: query.overdue,
    noThread: query.noThread,
    // Nobody signed in has nothing assigned: an id no user has.
    assignedTo: query.assigned === "me" ? (viewerId ?? "-") : undefined,
    overdueBefore: overdueCutoff(now, slaMinutes),
    risks: query.risk,
    riskCutoffs: riskCutoffs(now, riskTargets),
    sort: query.sort,
    perPage: query.perPage,
    page: query.page - 1,
    // One thread asked for by id shows all its calls ("show all N").
    callsPerThread: query.threadId || query.noThread ? MAX_CALLS_PER_THREAD : CALLS_PER_THREAD,
  });
  const db = await getDb(databaseUrlFromEnv());
  const listed = listing.threads.flatMap((thread) => thread.shownRuns);
  const [states, withExpiry, byItself] = await Promise.all([
    findCallDecisionStates(listed.map((run) => run.runId)),
    expiryTimes(),
    callsDecidedByItself(db, listed, now),
  ]);
  const { threads, threadTotal, callTotal } = withoutCalls(listing, byItself);
  const shown = threads.flatMap((thread) => thread.shownRuns.map((run) => withExpiry(asQueueRow(toRunDto(run, states)))));
  const [assignees, risked] = await Promise.all([
    findAssigneesWithThreads(
      db,
      callKeysOf(shown),
      threads.map((thread) => thread.threadKey),
    ),
    withRisks(db, shown),
  ]);
  const runs = await withAssignees(risked, assignees.calls);
  const threadAssignees = assignees.threads;
  const runsByThread = new Map<string, RunDto[]>();
  for (const run of runs) runsByThread.set(run.threadId ?? "", [...(runsByThread.get(run.threadId ?? "") ?? []), run]);
  return {
    threads: threads.map((thread) => {
      const assignee = threadAssignees.get(thread.threadKey);
      return {
        threadKey: thread.threadKey,
        calls: thread.calls,
        overdueCalls: thread.overdueCalls,
        oldestSuspendedAt: thread.oldestAt.toISOString(),
        ...(assignee ? { assignee: toAssigneeDto(assignee) } : {}),
        runs: runsByThread.get(thread.threadKey) ?? [],
      };
    }),
    threadTotal,
    callTotal,
    page: query.page,
    perPage: query.perPage,
    pageCount: Math.max(1, Math.ceil(threadTotal / query.perPage)),
    sort: query.sort,
    slaMinutes,
    riskTargets,
  };
}

/**
 * The listing without the calls the console decides by itself (lib/rules/deciding-by-itself.ts):
 * they never show, and the counts of their threads and the totals leave them out (a thread with
 * nothing else waiting goes). Only the calls shown are looked at: a thread's calls beyond its first
 * few are counted as they are.
 */
function withoutCalls(listing: ThreadListing, leftOut: Set<string>): ThreadListing {
  if (leftOut.size === 0) return listing;
  let { threadTotal, callTotal } = listing;
  const threads = listing.threads.flatMap((thread) => {
    let calls = thread.calls;
    const shownRuns = thread.shownRuns.flatMap((run) => {
      const toolCalls = run.toolCalls.filter((call) => !call.toolCallId || !leftOut.has(callKey(run.runId, call.toolCallId)));
      calls -= run.toolCalls.length - toolCalls.length;
      return toolCalls.length ? [{ ...run, toolCalls }] : [];
    });
    callTotal -= thread.calls - calls;
    if (calls > 0) return [{ ...thread, calls, overdueCalls: Math.min(thread.overdueCalls, calls), shownRuns }];
    threadTotal--;
    return [];
  });
  return { threads, threadTotal, callTotal };
}

/** The review queue for the URL's parameters as applied (sanitizeQueueQuery): invalid ones ignored and reported. */
export async function getRunsView({ query, problems }: SanitizedQuery<QueueQuery>, viewerId?: string): Promise<RunsViewDto> {
  return { ...(await getQueuePage(query, viewerId)), problems };
}

/** One waiting run with each call's decision state, or null when it no longer waits. */
export async function getRunDetail(runId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<RunDetailDto | null> {
  const run = await getSuspendedRun(runId, databaseUrl);
  if (!run) return null;
  const toolCalls = await Promise.all(
    run.toolCalls.map(async (call) =>
      call.step ? { ...call, resumeSchema: await workflowStepJsonSchema(run.agentId, call.step, databaseUrl) } : call,
    ),
  );
  const [detail] = await withAssignees(
    [toRunDetailDto({ ...run, toolCalls }, await findCallDecisionStates([runId]))],
    undefined,
    databaseUrl,
  );
  return detail!;
}

/**
 * What a run's page shows: the waiting run; or, when it no longer waits, the last decision the
 * console recorded on it, and when a call was decided outside the console after it (a call marked
 * expired can still be decided elsewhere); or nothing at all (never here, or continued outside this console).
 */
export async function getRunPage(
  runId: string,
): Promise<{ waiting: RunDetailDto } | { decided: PriorDecision; decidedOutsideAt?: string } | { unknown: true }> {
  const waiting = await getRunDetail(runId);
  if (waiting) return { waiting };
  const [decided, outside] = await Promise.all([findLatestDecisionOfRun(runId), lastOutsideDecisionOfRun(runId)]);
  if (!decided) return { unknown: true };
  return outside && outside.toISOString() > decided.decidedAt ? { decided, decidedOutsideAt: outside.toISOString() } : { decided };
}

type AssignableRun = Pick<RunDto, "runId" | "agentId" | "threadId"> & { toolCalls: Array<RunDto["toolCalls"][number]> };

/** The calls of `runs`, as the assignments know them. */
function callKeysOf(runs: AssignableRun[]) {
  return runs.flatMap((run) =>
    run.toolCalls.flatMap((call) => (call.toolCallId ? [{ runId: run.runId, toolCallId: call.toolCallId, threadId: run.threadId }] : [])),
  );
}

/** Each call's assignee (read here unless given), and whether only that person may decide it. */
async function withAssignees<Run extends AssignableRun>(
  runs: Run[],
  known?: Map<string, Assignee>,
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<Run[]> {
  const db = await getDb(databaseUrl);
  const assignees = known ?? (await findAssignees(db, callKeysOf(runs)));
  if (assignees.size === 0) return runs;
  const exclusive = await exclusiveAgents(
    db,
    runs.map((run) => run.agentId),
  );
  return runs.map((run) => ({
    ...run,
    toolCalls: run.toolCalls.map((call) => {
      const assignee = assigneeOf(assignees, run.runId, call.toolCallId);
      return assignee ? { ...call, assignee: toAssigneeDto(assignee, exclusive.has(run.agentId)) } : call;
    }),
  }));
}

function toAssigneeDto(assignee: Omit<Assignee, "via"> & { via?: Assignee["via"] }, exclusive?: boolean): AssigneeDto {
  return {
    id: assignee.id,
    name: assignee.name,
    email: assignee.email,
    ...(assignee.via ? { via: assignee.via } : {}),
    assignedBy: assignee.assignedBy,
    assignedAt: assignee.assignedAt.toISOString(),
    ...(exclusive ? { exclusive } : {}),
  };
}

/**
 * The longest request excerpt a queue row gets: about what one line of the row shows on a wide
 * screen. The store keeps 120 characters (the API's runs carry them); every character more than a
 * row shows rides along in the page's data for each of up to a thousand calls.
 */
export const QUEUE_EXCERPT_LENGTH = 80;

/**
 * A run as a queue row needs it. Without each call's arguments or payload: a row reads them when it
 * opens (readRun). A page can hold a thousand calls, and their arguments would ride along in the
 * page's HTML; for the same reason its request excerpt is cut to what the row shows.
 */
function asQueueRow(run: RunDto): RunDto {
  return {
    ...run,
    ...(run.requestExcerpt ? { requestExcerpt: cutExcerpt(run.requestExcerpt, QUEUE_EXCERPT_LENGTH) } : {}),
    toolCalls: run.toolCalls.map(({ args: _args, suspendPayload: _payload, ...call }) => call),
  };
}
