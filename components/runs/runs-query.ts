/**
 * The runs list's place in the React Query cache: one key for every page and filter of it, so a
 * decision anywhere can update or refresh the list without knowing how the table asked for it.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { RawRunsParams } from "@/lib/list-params";
import type { RunsViewDto } from "@/lib/queue/dto";

const RUNS = "runs";

/**
 * A view as the table keeps it: with the version the server gave it (none once changed here), and
 * when (performance.now()) the read that brought it began, to weigh it against the live stream's word.
 */
export type CachedRunsView = RunsViewDto & { version?: string; readAt?: number };

export function runsQueryKey(params: RawRunsParams) {
  return [RUNS, params] as const;
}

/** Drops a finished run from every cached page at once, then has the list re-read the server. */
export function forgetRun(queryClient: QueryClient, runId: string) {
  queryClient.setQueriesData<CachedRunsView>({ queryKey: [RUNS] }, (page) => {
    const thread = page?.threads.find((candidate) => candidate.runs.some((run) => run.runId === runId));
    if (!page || !thread) return page;
    const calls = thread.runs.find((run) => run.runId === runId)?.toolCalls.length ?? 0;
    const runs = thread.runs.filter((run) => run.runId !== runId);
    const threads =
      runs.length === 0
        ? page.threads.filter((t) => t !== thread)
        : page.threads.map((t) => (t === thread ? { ...t, runs, calls: t.calls - calls } : t));
    const threadTotal = runs.length === 0 ? Math.max(0, page.threadTotal - 1) : page.threadTotal;
    // Changed here, no longer what the server's version describes: the next read is a full one.
    return {
      ...page,
      version: undefined,
      threads,
      threadTotal,
      callTotal: Math.max(0, page.callTotal - calls),
      pageCount: Math.max(1, Math.ceil(threadTotal / page.perPage)),
    };
  });
  refreshRuns(queryClient);
}

/** Has the list re-read the server (a call was decided elsewhere, or changed). */
export function refreshRuns(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: [RUNS] });
}

/** One run's detail (args, payloads, resume schemas), read when a row opens and kept per run. */
export function runDetailQueryKey(runId: string) {
  return ["run-detail", runId] as const;
}
