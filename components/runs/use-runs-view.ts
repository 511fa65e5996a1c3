"use client";

/**
 * The runs page's data hook (the shape of Mastra playground's per-domain hooks): the URL is the
 * source of truth for filters and paging (nuqs), the server checks every value (browseRuns), and
 * the list is read again when the live stream says something it shows changed (use-live-queue.ts),
 * never on a timer while the stream is healthy; a slow poll only while it is down. The table only
 * renders what this returns.
 */
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { parseAsString, useQueryStates } from "nuqs";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { browseRuns } from "@/lib/actions/browse-runs";
import type { ClientActionError } from "@/lib/actions/result";
import {
  DEFAULT_PAGE_SIZE,
  RUNS_PARAM_KEYS,
  rawRunsParams,
  runsParamsHash,
  type RawRunsParams,
  type RunsParamKey,
} from "@/lib/list-params";
import type { RunsViewDto } from "@/lib/queue/dto";
import { concernsView } from "./live-changes";
import { livePresence } from "./live-presence";
import { runsQueryKey, type CachedRunsView } from "./runs-query";
import { callRowId } from "./runs-table-lingering";
import { isSendingFromHere } from "./sending-here";
import { alreadyShown, changesOnlyHidden, noSettlingCalls, settleFrom, withoutSettling } from "./settling-calls";
import { FALLBACK_POLL_MS, useLiveQueue } from "./use-live-queue";
import type { FilterPatch } from "./runs-table-toolbar";

/** Every URL parameter of the page, as text: the server, not the browser, decides what is valid. */
const runsSearchParams = Object.fromEntries(RUNS_PARAM_KEYS.map((key) => [key, parseAsString])) as Record<
  RunsParamKey,
  typeof parseAsString
>;

/** Why the list could not be read: the server's error, or "network" when it could not be reached (the table words it). */
export class RunsViewError extends Error {
  constructor(readonly error: ClientActionError) {
    super(error.message);
  }
}

/**
 * Reads the view, sending the version of the one the table has: when nothing it shows changed (a tab
 * back in focus, the slow poll), the server answers only that, and the table keeps what it has.
 */
async function fetchRunsView(params: RawRunsParams, cached: CachedRunsView | undefined): Promise<CachedRunsView> {
  const readAt = performance.now();
  let result: Awaited<ReturnType<typeof browseRuns>>;
  try {
    result = await browseRuns({ params, ifChanged: cached?.version });
  } catch {
    throw new RunsViewError({ code: "network", message: "" });
  }
  if (!result.ok) throw new RunsViewError(result.error);
  // Unchanged since the version it has: what the table holds is as good as read now.
  if ("unchanged" in result.data && cached) return { ...cached, readAt };
  if ("view" in result.data) return { ...result.data.view, version: result.data.version, readAt };
  // "Unchanged" for a table that holds nothing cannot be asked for: read it in full.
  return fetchRunsView(params, undefined);
}

/** Calls this tab has open or is deciding stay, for the decision's own outcome to show in them. */
function keepInPlace(runId: string, toolCallId: string): boolean {
  return Boolean(livePresence()?.isOpen(runId, toolCallId)) || isSendingFromHere(callRowId(runId, toolCallId, 0));
}

export interface RunsViewOptions {
  initialView: RunsViewDto | null;
  /** The version of `initialView` (lib/live/etag.ts), or null when it could not be read. */
  initialVersion: string | null;
  /** `runsParamsHash` of the URL parameters the server rendered `initialView` for. */
  initialParamsHash: string;
  initialDataUpdatedAt: number;
  /** The change feed's position read before `initialView`: the live stream resumes from it (null: from now). */
  livePosition: number | null;
}

export function useRunsView({ initialView, initialVersion, initialParamsHash, initialDataUpdatedAt, livePosition }: RunsViewOptions) {
  const [urlParams, setParams] = useQueryStates(runsSearchParams);
  const params = useMemo(() => rawRunsParams(urlParams), [urlParams]);
  const isInitialQuery = runsParamsHash(params) === initialParamsHash;
  const queryClient = useQueryClient();
  const queryKey = runsQueryKey(params);
  // What the stream said others are deciding: hidden at once, not read again for (settling-calls.ts).
  const [settling, setSettling] = useState(noSettlingCalls);
  const settlingNow = useRef(settling);
  const { live } = useLiveQueue(
    (change) => {
      if (alreadyShown(settlingNow.current, change, keepInPlace)) return false;
      const cached = queryClient.getQueryData<CachedRunsView>(queryKey);
      const concern = concernsView(change, params, cached);
      return concern === "now" && changesOnlyHidden(settlingNow.current, change, cached, keepInPlace) ? "elsewhere" : concern;
    },
    () => void queryClient.invalidateQueries({ queryKey }),
    livePosition,
    (change) => {
      const next = settleFrom(settlingNow.current, change, performance.now());
      if (next === settlingNow.current) return;
      settlingNow.current = next;
      setSettling(next);
    },
  );

  const query = useQuery({
    queryKey,
    queryFn: () => fetchRunsView(params, queryClient.getQueryData<CachedRunsView>(queryKey)),
    initialData: isInitialQuery && initialView ? { ...initialView, version: initialVersion ?? undefined } : undefined,
    initialDataUpdatedAt,
    placeholderData: keepPreviousData,
    refetchInterval: live ? false : FALLBACK_POLL_MS,
    retry: false,
  });

  const setFilters = useCallback((patch: FilterPatch) => setParams({ ...patch, page: null }, { history: "push" }), [setParams]);
  const resetFilters = useCallback(
    () =>
      setParams(
        {
          resourceId: null,
          threadId: null,
          noThread: null,
          agentId: null,
          from: null,
          to: null,
          overdue: null,
          assigned: null,
          page: null,
        },
        { history: "push" },
      ),
    [setParams],
  );
  const setPage = useCallback(
    (page: number, history: "push" | "replace" = "push") => setParams({ page: page > 1 ? String(page) : null }, { history }),
    [setParams],
  );
  const setPerPage = useCallback(
    (perPage: number) => setParams({ perPage: perPage === DEFAULT_PAGE_SIZE ? null : String(perPage), page: null }, { history: "push" }),
    [setParams],
  );

  const data = useMemo(() => (query.data ? withoutSettling(query.data, settling, keepInPlace) : undefined), [query.data, settling]);
  // Decided runs leave the list: if the current page no longer exists, go to the last one.
  useEffect(() => {
    if (data && !query.isPlaceholderData && data.threadTotal > 0 && data.page > data.pageCount) setPage(data.pageCount, "replace");
  }, [data, query.isPlaceholderData, setPage]);

  return {
    params,
    query,
    data,
    problems: data?.problems ?? [],
    loading: query.isFetching && (query.isPlaceholderData || !data),
    setFilters,
    resetFilters,
    setPage,
    setPerPage,
  };
}
