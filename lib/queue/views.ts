/**
 * The review queue as the console's pages and actions show it: the listing and the run detail
 * (lib/runs) with each pending call's decision state (lib/decisions), as DTOs for the browser.
 */
import { findCallDecisionStates, findLatestDecisionOfRun } from "../decisions/ledger.ts";
import type { PriorDecision } from "../decisions/types.ts";
import { listSuspendedRuns } from "../runs/list-suspended-runs.ts";
import { toRunDetailDto, toRunDto, type RunDetailDto, type RunsPageDto, type RunsViewDto } from "./dto.ts";
import { getSuspendedRun } from "../runs/run-detail.ts";
import type { RawRunsParams } from "../list-params.ts";
import { sanitizeRunsQuery, type RunsQuery } from "../search-params.ts";

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

/** The runs page for the URL's parameters as found: invalid ones are ignored and reported. */
export async function getRunsView(raw: RawRunsParams): Promise<RunsViewDto> {
  const { query, problems } = sanitizeRunsQuery(raw);
  return { ...(await getRunsPage(query)), problems };
}

/** One waiting run with each call's decision state, or null when it no longer waits. */
export async function getRunDetail(runId: string): Promise<RunDetailDto | null> {
  const run = await getSuspendedRun(runId);
  return run ? toRunDetailDto(run, await findCallDecisionStates([runId])) : null;
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
