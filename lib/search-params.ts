/**
 * The console's lists read their filters and page from the URL; these schemas check them on the
 * server (the runs page, the listing actions, the history page and its CSV export). The browser
 * never validates: it sends the parameters as found and shows what the server ignored and why.
 */
import { z } from "zod";
import { textCheck } from "./ids.ts";
import { idTextProblem } from "./safe-text.ts";
import { wholeNumberInput } from "./numeric-input.ts";
import {
  AUDIT_OUTCOMES,
  DEFAULT_PAGE_SIZE,
  EARLIEST_DAY,
  FILTER_MAX_LENGTH,
  isFilterableDate,
  LATEST_DAY,
  MAX_PAGE,
  PAGE_SIZES,
  QUEUE_SORTS,
  RUNS_PARAM_KEYS,
  type RawRunsParams,
  type RunsParamKey,
} from "./list-params.ts";
import { isRisk, RISKS } from "./risk.ts";

const optionalFilter = (label: string) =>
  z
    .string()
    .trim()
    .max(FILTER_MAX_LENGTH, `${label} is longer than ${FILTER_MAX_LENGTH} characters`)
    .superRefine(textCheck(label, idTextProblem))
    .optional()
    .transform((value) => (value ? value : undefined));

/** `YYYY-MM-DD` (a whole day, in UTC) or a full ISO timestamp, within the dates both databases hold. */
const dayOrInstant = (label: string, edge: "start" | "end") =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
      const date = new Date(dayOnly ? `${value}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z` : value);
      if (Number.isNaN(date.getTime()) || (dayOnly && date.toISOString().slice(0, 10) !== value)) {
        context.addIssue({ code: "custom", message: `${label} is not a valid date (use YYYY-MM-DD)` });
        return z.NEVER;
      }
      if (!isFilterableDate(date)) {
        context.addIssue({ code: "custom", message: `${label} must be a date from ${EARLIEST_DAY} to ${LATEST_DAY} (UTC)` });
        return z.NEVER;
      }
      return date;
    });

/** From/To days and a 1-based page of one of PAGE_SIZES: the URL fields of the console's lists. */
function dateRangeAndPage(defaultPageSize: number) {
  return {
    from: dayOrInstant("From", "start"),
    to: dayOrInstant("To", "end"),
    page: wholeNumberInput("page", { min: 1, max: MAX_PAGE, notWhole: "page must be a number", tooSmall: "page starts at 1" }).default(1),
    perPage: wholeNumberInput("perPage", { min: 0, max: Number.MAX_SAFE_INTEGER, notWhole: "perPage must be a number" })
      .refine((size) => (PAGE_SIZES as readonly number[]).includes(size), `perPage must be one of ${PAGE_SIZES.join(", ")}`)
      .default(defaultPageSize),
  };
}

function fromNotAfterTo(query: { from?: Date; to?: Date }): boolean {
  return !query.from || !query.to || query.from <= query.to;
}

/**
 * What the runs page shows: filters, a 1-based page and a page size. The same schema parses the
 * URL on the server page and the listing server action's input.
 */
const runsFields = {
  resourceId: optionalFilter("Resource ID"),
  threadId: optionalFilter("Thread ID"),
  agentId: optionalFilter("Agent"),
  ...dateRangeAndPage(DEFAULT_PAGE_SIZE),
};

export const runsQuery = z.object(runsFields).refine(fromNotAfterTo, { message: "From must not be after To", path: ["to"] });

export type RunsQueryInput = z.input<typeof runsQuery>;
export type RunsQuery = z.output<typeof runsQuery>;

/**
 * What the review queue shows: the runs page's filters, plus the order of its threads and the
 * overdue filter; `perPage` counts threads.
 */
export const queueQuery = z
  .object({
    ...runsFields,
    sort: z
      .string()
      .optional()
      .transform((value) => value || undefined)
      .pipe(z.enum(QUEUE_SORTS, { error: `sort must be one of ${QUEUE_SORTS.join(", ")}` }).default("oldest")),
    overdue: flag("overdue"),
    /** `me`: only the calls assigned to the signed-in reviewer (lib/assignments). */
    assigned: z
      .string()
      .optional()
      .transform((value) => value || undefined)
      .pipe(z.enum(["me"], { error: "assigned must be me (or left out)" }).optional()),
    /** Only the runs without a thread (the queue's No thread group, whole). */
    noThread: flag("noThread"),
    /** `high`, or several risks comma-separated (`high,critical`): only calls a rule gave one of them. */
    risk: riskList(),
  })
  .refine(fromNotAfterTo, { message: "From must not be after To", path: ["to"] })
  .refine((query) => !query.noThread || !query.threadId, {
    message: "noThread and a Thread ID exclude each other",
    path: ["noThread"],
  });

/** Risks as the URL writes them, `high` or `high,critical`: each known, none twice, in their order low to critical. */
function riskList() {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const named = value.split(",").map((part) => part.trim());
      if (named.length > RISKS.length * 2 || !named.every(isRisk)) {
        context.addIssue({ code: "custom", message: `risk must be one or more of ${RISKS.join(", ")}, comma-separated` });
        return z.NEVER;
      }
      return RISKS.filter((risk) => named.includes(risk));
    });
}

/** A URL switch: "1", or left out. */
function flag(name: string) {
  return z
    .string()
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.enum(["1"], { error: `${name} must be 1 (or left out)` }).optional())
    .transform((value) => value === "1");
}

export type QueueQuery = z.output<typeof queueQuery>;

/* ---------- the decision history (audit log) ---------- */

export const auditQuery = z
  .object({
    reviewer: optionalFilter("Reviewer"),
    resourceId: optionalFilter("Resource ID"),
    agentId: optionalFilter("Agent"),
    outcome: z
      .string()
      .optional()
      .transform((value) => (value ? value : undefined))
      .pipe(z.enum(AUDIT_OUTCOMES, { error: `Outcome must be one of ${AUDIT_OUTCOMES.join(", ")}` }).optional()),
    /** The batch id of a bulk request: its calls' entries. */
    batch: optionalFilter("Batch"),
    ...dateRangeAndPage(50),
  })
  .refine(fromNotAfterTo, { message: "From must not be after To", path: ["to"] });

export type AuditQueryInput = z.input<typeof auditQuery>;
export type AuditQuery = z.output<typeof auditQuery>;

/** A list's URL parameters as applied: invalid ones dropped, each with a sentence saying why. */
export interface SanitizedQuery<Query> {
  query: Query;
  /** The parameters that were kept, as found (for forms and links that reproduce the view). */
  applied: Record<string, string>;
  problems: string[];
}

/**
 * The one policy for bad URL parameters, on every list: each parameter that fails its check is
 * left out and reported, the others still apply; the page never fails for a bad link.
 */
export function sanitizeQuery<Schema extends z.ZodType<object>>(
  schema: Schema,
  raw: Record<string, string>,
  unreadable: string,
): SanitizedQuery<z.output<Schema>> {
  const input: Record<string, string> = { ...raw };
  const problems: string[] = [];
  for (let attempt = 0; attempt <= Object.keys(raw).length; attempt++) {
    const result = schema.safeParse(input);
    if (result.success) return { query: result.data, applied: input, problems };
    let dropped = false;
    for (const issue of result.error.issues) {
      const key = issue.path[0];
      if (typeof key === "string" && key in input) {
        problems.push(`${key}=${truncate(input[key] ?? "")} was ignored: ${issue.message}`);
        delete input[key];
        dropped = true;
      }
    }
    if (!dropped) break;
  }
  problems.push(unreadable);
  return { query: schema.parse({}), applied: {}, problems };
}

/** The review queue's parameters as applied. */
export function sanitizeQueueQuery(raw: RawRunsParams): SanitizedQuery<QueueQuery> {
  return sanitizeQuery(queueQuery, raw as Record<string, string>, "The link's filters could not be read; showing every pending call.");
}

/** The history page's parameters as applied. */
export function sanitizeAuditQuery(raw: Record<string, string>): SanitizedQuery<AuditQuery> {
  return sanitizeQuery(auditQuery, raw, "The link's filters could not be read; showing the whole history.");
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
