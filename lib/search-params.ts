/**
 * The console's lists read their filters and page from the URL; these schemas check them on the
 * server (the runs page, the listing actions, the history page and its CSV export). The browser
 * never validates: it sends the parameters as found and shows what the server ignored and why.
 */
import { z } from "zod";
import { idTextProblemKind } from "./safe-text.ts";
import { wholeNumberOf } from "./numeric-settings.mjs";
import { ignoredParameter, issueOf, linkProblem, wordsOfIssue, type LinkProblem, type LinkProblemWords } from "./link-problems.ts";
import {
  AUDIT_KINDS,
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

/** A field's name as the filters label it: words of the catalogs, so a reason reads in the reader's language. */
type Label =
  | "labelResourceId"
  | "labelThreadId"
  | "labelAgent"
  | "labelTool"
  | "labelReviewer"
  | "labelBatch"
  | "labelRunId"
  | "labelFrom"
  | "labelTo";
const TEXT_PROBLEMS = { nul: "hasNul", surrogate: "hasSurrogate", control: "hasControl" } as const;

/** Adds a custom issue carrying `words` (lib/link-problems.ts): its message is their English. */
const complain = (context: z.RefinementCtx, words: LinkProblemWords) => context.addIssue({ code: "custom", ...issueOf(words) });

const optionalFilter = (label: Label) =>
  z
    .string()
    .trim()
    .superRefine((text, context) => {
      if (text.length > FILTER_MAX_LENGTH) {
        complain(context, { key: "tooLong", values: { label: { key: label }, limit: String(FILTER_MAX_LENGTH) } });
        return;
      }
      const kind = idTextProblemKind(text);
      if (kind) complain(context, { key: TEXT_PROBLEMS[kind], values: { label: { key: label } } });
    })
    .optional()
    .transform((value) => (value ? value : undefined));

/** `YYYY-MM-DD` (a whole day, in UTC) or a full ISO timestamp, within the dates both databases hold. */
const dayOrInstant = (label: Label, edge: "start" | "end") =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
      const date = new Date(dayOnly ? `${value}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z` : value);
      if (Number.isNaN(date.getTime()) || (dayOnly && date.toISOString().slice(0, 10) !== value)) {
        complain(context, { key: "notDate", values: { label: { key: label } } });
        return z.NEVER;
      }
      if (!isFilterableDate(date)) {
        complain(context, { key: "dateOutOfRange", values: { label: { key: label }, earliest: EARLIEST_DAY, latest: LATEST_DAY } });
        return z.NEVER;
      }
      return date;
    });

/** A whole number from the URL (lib/numeric-settings.mjs `wholeNumberOf`: plain digits), from `min` to `max`. */
function wholeNumber(param: string, min: number, max: number, tooSmall: LinkProblemWords) {
  return z.unknown().transform((value, context): number => {
    const number = wholeNumberOf(value);
    if (number === undefined) complain(context, { key: "notNumber", values: { param } });
    else if (number < min) complain(context, tooSmall);
    else if (number > max) complain(context, { key: "atMost", values: { param, limit: String(max) } });
    else return number;
    return z.NEVER;
  });
}

/** One of `options` (an empty value: left out), else an issue with `words`. */
function oneOf<const Options extends readonly string[]>(options: Options, words: LinkProblemWords) {
  return z
    .string()
    .optional()
    .transform((value, context): Options[number] | undefined => {
      if (!value) return undefined;
      if ((options as readonly string[]).includes(value)) return value;
      complain(context, words);
      return z.NEVER;
    });
}

/** From/To days and a 1-based page of one of PAGE_SIZES: the URL fields of the console's lists. */
function dateRangeAndPage(defaultPageSize: number) {
  const sizes = PAGE_SIZES.join(", ");
  return {
    from: dayOrInstant("labelFrom", "start"),
    to: dayOrInstant("labelTo", "end"),
    page: wholeNumber("page", 1, MAX_PAGE, { key: "pageStartsAt1" }).default(1),
    // Plain digits are never below 0: perPage has no "too small" of its own.
    perPage: wholeNumber("perPage", 0, Number.MAX_SAFE_INTEGER, { key: "notNumber", values: { param: "perPage" } })
      .superRefine((size, context) => {
        if (!(PAGE_SIZES as readonly number[]).includes(size))
          complain(context, { key: "oneOf", values: { subject: "perPage", options: sizes } });
      })
      .default(defaultPageSize),
  };
}

function fromNotAfterTo(query: { from?: Date; to?: Date }): boolean {
  return !query.from || !query.to || query.from <= query.to;
}
const FROM_AFTER_TO = { ...issueOf({ key: "fromAfterTo" }), path: ["to"] };

/**
 * What the runs page shows: filters, a 1-based page and a page size. The same schema parses the
 * URL on the server page and the listing server action's input.
 */
const runsFields = {
  resourceId: optionalFilter("labelResourceId"),
  threadId: optionalFilter("labelThreadId"),
  agentId: optionalFilter("labelAgent"),
  ...dateRangeAndPage(DEFAULT_PAGE_SIZE),
};

export const runsQuery = z.object(runsFields).refine(fromNotAfterTo, FROM_AFTER_TO);

export type RunsQueryInput = z.input<typeof runsQuery>;
export type RunsQuery = z.output<typeof runsQuery>;

/**
 * What the review queue shows: the runs page's filters, plus the order of its threads and the
 * overdue filter; `perPage` counts threads.
 */
export const queueQuery = z
  .object({
    ...runsFields,
    sort: oneOf(QUEUE_SORTS, { key: "oneOf", values: { subject: "sort", options: QUEUE_SORTS.join(", ") } }).transform(
      (sort) => sort ?? "oldest",
    ),
    overdue: flag("overdue"),
    /** `me`: only the calls assigned to the signed-in reviewer (lib/assignments). */
    assigned: oneOf(["me"], { key: "onlyValue", values: { param: "assigned", value: "me" } }),
    /** Only the runs without a thread (the queue's No thread group, whole). */
    noThread: flag("noThread"),
    /** `high`, or several risks comma-separated (`high,critical`): only calls a rule gave one of them. */
    risk: riskList(),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO)
  .refine((query) => !query.noThread || !query.threadId, { ...issueOf({ key: "noThreadWithThread" }), path: ["noThread"] });

/** Risks as the URL writes them, `high` or `high,critical`: each known, none twice, in their order low to critical. */
function riskList() {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const named = value.split(",").map((part) => part.trim());
      if (named.length > RISKS.length * 2 || !named.every(isRisk)) {
        complain(context, { key: "risks", values: { param: "risk", options: RISKS.join(", ") } });
        return z.NEVER;
      }
      return RISKS.filter((risk) => named.includes(risk));
    });
}

/** A URL switch: "1", or left out. */
function flag(name: string) {
  return oneOf(["1"], { key: "onlyValue", values: { param: name, value: "1" } }).transform((value) => value === "1");
}

export type QueueQuery = z.output<typeof queueQuery>;

/* ---------- the decision history (audit log) ---------- */

export const auditQuery = z
  .object({
    /** decisions, or access (changes): a reviewer reading decisions sees no access change among them, and back. */
    kind: oneOf(AUDIT_KINDS, { key: "oneOf", values: { subject: { key: "labelKind" }, options: AUDIT_KINDS.join(", ") } }),
    reviewer: optionalFilter("labelReviewer"),
    resourceId: optionalFilter("labelResourceId"),
    agentId: optionalFilter("labelAgent"),
    toolName: optionalFilter("labelTool"),
    outcome: oneOf(AUDIT_OUTCOMES, { key: "oneOf", values: { subject: { key: "labelOutcome" }, options: AUDIT_OUTCOMES.join(", ") } }),
    /** The batch id of a bulk request: its calls' entries. */
    batch: optionalFilter("labelBatch"),
    /** One run's entries: what a rule's backtest links each disagreement to. */
    runId: optionalFilter("labelRunId"),
    ...dateRangeAndPage(50),
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);

export type AuditQueryInput = z.input<typeof auditQuery>;
export type AuditQuery = z.output<typeof auditQuery>;

/** A list's URL parameters as applied: invalid ones dropped, each with why (in English and as catalog words). */
export interface SanitizedQuery<Query> {
  query: Query;
  /** The parameters that were kept, as found (for forms and links that reproduce the view). */
  applied: Record<string, string>;
  problems: LinkProblem[];
}

/**
 * The one policy for bad URL parameters, on every list: each parameter that fails its check is
 * left out and reported, the others still apply; the page never fails for a bad link.
 */
export function sanitizeQuery<Schema extends z.ZodType<object>>(
  schema: Schema,
  raw: Record<string, string>,
  unreadable: "unreadableQueue" | "unreadableHistory" | "unreadableInsights",
): SanitizedQuery<z.output<Schema>> {
  const input: Record<string, string> = { ...raw };
  const problems: LinkProblem[] = [];
  for (let attempt = 0; attempt <= Object.keys(raw).length; attempt++) {
    const result = schema.safeParse(input);
    if (result.success) return { query: result.data, applied: input, problems };
    let dropped = false;
    for (const issue of result.error.issues) {
      const key = issue.path[0];
      if (typeof key === "string" && key in input) {
        // Every check above words its issue; a reason without words is shown as its message says.
        const reason = wordsOfIssue(issue as { params?: Record<string, unknown> }) ?? { key: "asWritten", values: { text: issue.message } };
        problems.push(ignoredParameter(key, input[key] ?? "", reason));
        delete input[key];
        dropped = true;
      }
    }
    if (!dropped) break;
  }
  problems.push(linkProblem(unreadable));
  return { query: schema.parse({}), applied: {}, problems };
}

/** The review queue's parameters as applied. */
export function sanitizeQueueQuery(raw: RawRunsParams): SanitizedQuery<QueueQuery> {
  return sanitizeQuery(queueQuery, raw as Record<string, string>, "unreadableQueue");
}

/** The history page's parameters as applied. */
export function sanitizeAuditQuery(raw: Record<string, string>): SanitizedQuery<AuditQuery> {
  return sanitizeQuery(auditQuery, raw, "unreadableHistory");
}
