/**
 * The URL state of the console's two lists (pending runs, decision history): filters, a 1-based
 * page and a page size. The server page, the listing action and the client table parse the URL with
 * these same schemas.
 *
 * Written with `zod/mini` because the client table ships them to the browser: the functional API
 * tree-shakes to the few validators used here (~5 kB gzip) where classic zod brings all of itself
 * (~40 kB gzip, measured by `npm run bench`'s page check). Every check carries its own message:
 * zod/mini has no default English ones.
 */
import * as z from "zod/mini";

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** Longest filter value (an id) the lists accept. */
export const FILTER_MAX_LENGTH = 256;

const optionalFilter = (label: string) =>
  z.pipe(
    z.optional(
      z.string({ error: `${label} must be text` }).check(
        z.trim(),
        z.maxLength(FILTER_MAX_LENGTH, `${label} is longer than ${FILTER_MAX_LENGTH} characters`),
      ),
    ),
    z.transform((value: string | undefined) => (value ? value : undefined)),
  );

/** `YYYY-MM-DD` (a whole day, in UTC) or a full ISO timestamp. */
const dayOrInstant = (label: string, edge: "start" | "end") =>
  z.pipe(
    z.optional(z.string({ error: `${label} must be text` }).check(z.trim())),
    z.transform((value: string | undefined, context) => {
      if (!value) return undefined;
      const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
      const date = new Date(dayOnly ? `${value}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z` : value);
      if (Number.isNaN(date.getTime()) || (dayOnly && date.toISOString().slice(0, 10) !== value)) {
        context.issues.push({ code: "custom", message: `${label} is not a valid date (use YYYY-MM-DD)`, input: value });
        return z.NEVER;
      }
      return date;
    }),
  );

/** From/To days and a 1-based page of one of PAGE_SIZES: the URL fields of the console's lists. */
function dateRangeAndPage(defaultPageSize: number) {
  return {
    from: dayOrInstant("From", "start"),
    to: dayOrInstant("To", "end"),
    page: z._default(
      z.coerce.number({ error: "page must be a number" }).check(
        z.int("page must be a whole number"),
        z.minimum(1, "page starts at 1"),
        z.maximum(1_000_000, "page is at most 1,000,000"),
      ),
      1,
    ),
    perPage: z._default(
      z.coerce.number({ error: "perPage must be a number" }).check(
        z.refine((size) => (PAGE_SIZES as readonly number[]).includes(size), `perPage must be one of ${PAGE_SIZES.join(", ")}`),
      ),
      defaultPageSize,
    ),
  };
}

const fromNotAfterTo = z.refine<{ from?: Date; to?: Date }>((query) => !query.from || !query.to || query.from <= query.to, {
  message: "From must not be after To",
  path: ["to"],
});

/** What the runs page shows. The server page and the listing action parse with it. */
export const runsQuery = z
  .object({
    resourceId: optionalFilter("Resource ID"),
    threadId: optionalFilter("Thread ID"),
    agentId: optionalFilter("Agent"),
    ...dateRangeAndPage(DEFAULT_PAGE_SIZE),
  })
  .check(fromNotAfterTo);

export type RunsQueryInput = z.input<typeof runsQuery>;
export type RunsQuery = z.output<typeof runsQuery>;

export const AUDIT_OUTCOMES = ["recorded", "applied", "failed", "released", "interrupted", "recovered", "refused", "conflict"] as const;

/** The decision history's filters (the audit log). */
export const auditQuery = z
  .object({
    reviewer: optionalFilter("Reviewer"),
    resourceId: optionalFilter("Resource ID"),
    agentId: optionalFilter("Agent"),
    outcome: z.pipe(
      z.pipe(
        z.optional(z.string({ error: "Outcome must be text" })),
        z.transform((value: string | undefined) => (value ? value : undefined)),
      ),
      z.optional(z.enum(AUDIT_OUTCOMES, { error: `Outcome must be one of ${AUDIT_OUTCOMES.join(", ")}` })),
    ),
    ...dateRangeAndPage(50),
  })
  .check(fromNotAfterTo);

export type AuditQueryInput = z.input<typeof auditQuery>;
export type AuditQuery = z.output<typeof auditQuery>;
