/**
 * The runs list's place in the React Query cache: one key for every page and filter of it, so a
 * decision anywhere can update or refresh the list without knowing how the table asked for it.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { RawRunsParams } from "@/lib/list-params";
import type { RunsPageDto } from "@/lib/queue/dto";

const RUNS = "runs";

export function runsQueryKey(params: RawRunsParams) {
  return [RUNS, params] as const;
}

/** Drops a finished run from every cached page at once, then has the list re-read the server. */
export function forgetRun(queryClient: QueryClient, runId: string) {
  queryClient.setQueriesData<RunsPageDto>({ queryKey: [RUNS] }, (page) => {
    if (!page || !page.runs.some((run) => run.runId === runId)) return page;
    const total = Math.max(0, page.total - 1);
    return {
      ...page,
      runs: page.runs.filter((run) => run.runId !== runId),
      total,
      pageCount: Math.max(1, Math.ceil(total / page.perPage)),
    };
  });
  refreshRuns(queryClient);
}

/** Has the list re-read the server (a call was decided elsewhere, or changed). */
export function refreshRuns(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: [RUNS] });
}
