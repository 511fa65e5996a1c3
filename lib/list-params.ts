/**
 * What the console's lists (pending runs, decision history) accept in their URLs, as plain values:
 * the browser needs them to draw pickers, the server's schemas (lib/search-params.ts) enforce them.
 * Kept free of zod so that client components can import it without shipping a validator.
 */
import { ID_MAX_LENGTH } from "./safe-text.ts";

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** The deepest page a list's URL may ask for. */
export const MAX_PAGE = 1_000_000;

/**
 * The dates a date filter may name, in UTC: the years 0001 to 9999, what both databases hold and
 * compare. PostgreSQL's timestamp(3) goes back to 4713 BC, but years before 0001 reach it in a form
 * it refuses (a 500, as the driver formats them); SQLite keeps dates as ISO text, compared as
 * text, and JS Date writes years outside 0000-9999 as +010000 or -000001, which sort among the
 * 4-digit ones wrongly. Every schema of a date filter checks against these (lib/search-params.ts,
 * lib/runs/validations.ts); the date pickers take them as min and max.
 */
export const EARLIEST_DAY = "0001-01-01";
export const LATEST_DAY = "9999-12-31";
const EARLIEST_MS = Date.parse(`${EARLIEST_DAY}T00:00:00.000Z`);
const LATEST_MS = Date.parse(`${LATEST_DAY}T23:59:59.999Z`);

/** Whether a date filter may name `date`: a valid date from EARLIEST_DAY to LATEST_DAY (UTC). */
export function isFilterableDate(date: Date): boolean {
  const time = date.getTime();
  return time >= EARLIEST_MS && time <= LATEST_MS;
}
/** Longest filter value (an id) the lists accept. */
export const FILTER_MAX_LENGTH = ID_MAX_LENGTH;

export const AUDIT_OUTCOMES = [
  "recorded",
  "approved",
  "applied",
  "expired",
  "failed",
  "released",
  "interrupted",
  "recovered",
  "refused",
  "conflict",
  "decided-outside",
] as const;

/** The history page's URL parameters. */
/**
 * The history's kinds of row: `decisions` (the decisions, their steps and the refused attempts) or
 * `access` (changes to who may use the console: lib/audit/access-changes.ts). Unset: both.
 */
export const AUDIT_KINDS = ["decisions", "access"] as const;

export const AUDIT_PARAM_KEYS = [
  "kind",
  "reviewer",
  "resourceId",
  "agentId",
  "toolName",
  "outcome",
  "batch",
  "runId",
  "from",
  "to",
  "page",
  "perPage",
] as const;

/**
 * How the review queue orders its threads: by how long their oldest call has waited, or `risk`:
 * highest risk first (a thread by its highest-risk call), then longest waiting.
 */
export const QUEUE_SORTS = ["oldest", "newest", "risk"] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

/** The runs page's URL parameters. */
export const RUNS_PARAM_KEYS = [
  "resourceId",
  "threadId",
  "noThread",
  "agentId",
  "from",
  "to",
  "overdue",
  "assigned",
  "risk",
  "sort",
  "page",
  "perPage",
] as const;
export type RunsParamKey = (typeof RUNS_PARAM_KEYS)[number];
/** The runs page's URL parameters as found, unchecked: non-empty trimmed strings. */
export type RawRunsParams = Partial<Record<RunsParamKey, string>>;

/** Picks the first non-blank value of each known parameter (Next's `searchParams`, or nuqs state). */
export function rawRunsParams(searchParams: Record<string, string | string[] | null | undefined>): RawRunsParams {
  const raw: RawRunsParams = {};
  for (const key of RUNS_PARAM_KEYS) {
    const found = searchParams[key];
    const value = (Array.isArray(found) ? found[0] : found)?.trim();
    if (value) raw[key] = value;
  }
  return raw;
}

/** A stable string for comparing two sets of parameters (same key order every time). */
export function runsParamsHash(raw: RawRunsParams): string {
  return JSON.stringify(RUNS_PARAM_KEYS.map((key) => raw[key] ?? null));
}

export function hasRunFilters(raw: RawRunsParams): boolean {
  return Boolean(
    raw.resourceId || raw.threadId || raw.noThread || raw.agentId || raw.from || raw.to || raw.overdue || raw.assigned || raw.risk,
  );
}
