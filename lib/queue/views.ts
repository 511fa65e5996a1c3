/**
 * The review queue as the console's pages and actions show it: pages of threads, the runs listing
 * (GET /api/runs) and the run detail
 * (lib/runs) with each pending call's decision state (lib/decisions), as DTOs for the browser.
 */
import { databaseUrlFromEnv } from "../db/client.ts";
import { findCallDecisionStates, findLatestDecisionOfRun } from "../decisions/ledger.ts";
import { workflowStepJsonSchema } from "../decisions/owners.ts";
import type { PriorDecision } from "../decisions/types.ts";
import { listSuspendedRuns } from "../runs/list-suspended-runs.ts";
import { listThreads } from "../runs/list-threads.ts";
import { CALLS_PER_THREAD, MAX_CALLS_PER_THREAD } from "../runs/validations.ts";
import { toRunDetailDto, toRunDto, type QueuePageDto, type RunDetailDto, type RunDto, type RunsPageDto, type RunsViewDto } from "./dto.ts";
import { overdueCutoff, reviewSlaMinutes } from "./review-target.ts";
import { getSuspendedRun } from "../runs/run-detail.ts";
import { expiryTimes } from "./expiry-times.ts";
import type { RawRunsParams } from "../list-params.ts";
import { sanitizeQueueQuery, type QueueQuery, type RunsQuery } from "../search-params.ts";

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

/** A page of the review queue: whole threads with their matching calls and each call's decision state. */
export async function getQueuePage(query: QueueQuery): Promise<QueuePageDto> {
  const slaMinutes = reviewSlaMinutes();
  const { threads, threadTotal, callTotal } = await listThreads({
    agentId: query.agentId,
    resourceId: query.resourceId,
    threadId: query.threadId,
    fromDate: query.from,
    toDate: query.to,
    onlyOverdue: query.overdue,
    noThread: query.noThread,
    overdueBefore: overdueCutoff(new Date(), slaMinutes),
    sort: query.sort,
    perPage: query.perPage,
    page: query.page - 1,
    // One thread asked for by id shows all its calls ("show all N").
    callsPerThread: query.threadId || query.noThread ? MAX_CALLS_PER_THREAD : CALLS_PER_THREAD,
  });
  const [states, withExpiry] = await Promise.all([
    findCallDecisionStates(threads.flatMap((thread) => thread.shownRuns.map((run) => run.runId))),
    expiryTimes(),
  ]);
  return {
    threads: threads.map((thread) => ({
      threadKey: thread.threadKey,
      calls: thread.calls,
      overdueCalls: thread.overdueCalls,
      oldestSuspendedAt: thread.oldestAt.toISOString(),
      // Without each call's arguments or payload: a row reads them when it opens (readRun). A page
      // can hold a thousand calls, and their arguments would ride along in the page's HTML.
      runs: thread.shownRuns.map((run) => withExpiry(withoutPayloads(toRunDto(run, states)))),
    })),
    threadTotal,
    callTotal,
    page: query.page,
    perPage: query.perPage,
    pageCount: Math.max(1, Math.ceil(threadTotal / query.perPage)),
    sort: query.sort,
    slaMinutes,
  };
}

/** The review queue for the URL's parameters as found: invalid ones are ignored and reported. */
export async function getRunsView(raw: RawRunsParams): Promise<RunsViewDto> {
  const { query, problems } = sanitizeQueueQuery(raw);
  return { ...(await getQueuePage(query)), problems };
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
  return toRunDetailDto({ ...run, toolCalls }, await findCallDecisionStates([runId]));
}

/**
 * What a run's page shows: the waiting run; or, when it no longer waits, the last decision the
 * console recorded on it; or nothing at all (never here, or continued outside this console).
 */
export async function getRunPage(runId: string): Promise<{ waiting: RunDetailDto } | { decided: PriorDecision } | { unknown: true }> {
  const waiting = await getRunDetail(runId);
  if (waiting) return { waiting };
  const decided = await findLatestDecisionOfRun(runId);
  return decided ? { decided } : { unknown: true };
}

function withoutPayloads(run: RunDto): RunDto {
  return { ...run, toolCalls: run.toolCalls.map(({ args: _args, suspendPayload: _payload, ...call }) => call) };
}
