/**
 * The runs page's URL state, shared by the server page and the client table: the raw search params
 * are checked with the same `runsQuery` schema the listing action uses, and every invalid parameter
 * is dropped (and reported) instead of failing the page.
 */
import { DEFAULT_PAGE_SIZE, runsQuery, type RunsQuery } from "@/lib/search-params";

export const RUNS_PARAM_KEYS = ["resourceId", "threadId", "agentId", "from", "to", "page", "perPage"] as const;
export type RunsParamKey = (typeof RUNS_PARAM_KEYS)[number];
export type RawRunsParams = Partial<Record<RunsParamKey, string | null | undefined>>;

/** What the client sends to `listRuns` and keys its cache with: plain strings and numbers. */
export interface RunsQueryState {
  resourceId?: string;
  threadId?: string;
  agentId?: string;
  from?: string;
  to?: string;
  page: number;
  perPage: number;
}

export interface SanitizedRunsQuery {
  state: RunsQueryState;
  parsed: RunsQuery;
  /** One sentence per parameter that was ignored. */
  problems: string[];
}

const DEFAULT_STATE: RunsQueryState = { page: 1, perPage: DEFAULT_PAGE_SIZE };

/** Picks the first value of each known parameter from Next's `searchParams`. */
export function rawParamsFromSearchParams(searchParams: Record<string, string | string[] | undefined>): RawRunsParams {
  const raw: RawRunsParams = {};
  for (const key of RUNS_PARAM_KEYS) {
    const value = searchParams[key];
    raw[key] = Array.isArray(value) ? value[0] : value;
  }
  return raw;
}

export function sanitizeRunsQuery(raw: RawRunsParams): SanitizedRunsQuery {
  const input: Partial<Record<RunsParamKey, string>> = {};
  for (const key of RUNS_PARAM_KEYS) {
    const value = raw[key];
    if (typeof value === "string" && value.trim() !== "") input[key] = value;
  }
  const problems: string[] = [];
  for (let attempt = 0; attempt <= RUNS_PARAM_KEYS.length; attempt++) {
    const result = runsQuery.safeParse(input);
    if (result.success) {
      const parsed = result.data;
      const state: RunsQueryState = {
        resourceId: parsed.resourceId,
        threadId: parsed.threadId,
        agentId: parsed.agentId,
        from: parsed.from ? input.from?.trim() : undefined,
        to: parsed.to ? input.to?.trim() : undefined,
        page: parsed.page,
        perPage: parsed.perPage,
      };
      return { state: dropUndefined(state), parsed, problems };
    }
    let dropped = false;
    for (const issue of result.error.issues) {
      const key = issue.path[0];
      if (typeof key === "string" && key in input) {
        problems.push(`${key}=${truncate(input[key as RunsParamKey] ?? "")} was ignored: ${issue.message}`);
        delete input[key as RunsParamKey];
        dropped = true;
      }
    }
    if (!dropped) break;
  }
  problems.push("The link's filters could not be read; showing every pending run.");
  return { state: { ...DEFAULT_STATE }, parsed: runsQuery.parse({}), problems };
}

/** A stable string for comparing two query states (same key order every time). */
export function runsQueryHash(state: RunsQueryState): string {
  return JSON.stringify(RUNS_PARAM_KEYS.map((key) => state[key] ?? null));
}

export function hasFilters(state: RunsQueryState): boolean {
  return Boolean(state.resourceId || state.threadId || state.agentId || state.from || state.to);
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
