/**
 * What an insights request may ask, checked with zod on the server (GET /api/insights, the page's
 * URL): a period of the last 7, 30 or 90 days, or from/to dates (inclusive, at most 366 days), in
 * the viewer's time zone; filters by agent, tool, resource prefix and risk. Every issue carries
 * catalog words (lib/link-problems.ts): the API answers their English, the page says them in the
 * reader's language when it leaves a bad parameter out.
 */
import { z } from "zod";
import { isTimeZone } from "../i18n/time-zones.ts";
import { issueOf, type LinkProblemWords } from "../link-problems.ts";
import { ID_MAX_LENGTH } from "../safe-text.ts";
import { sanitizeQuery, type SanitizedQuery } from "../search-params.ts";
import { INSIGHT_PERIODS, INSIGHT_RISKS, MAX_PERIOD_DAYS } from "./params.ts";

type Label = "labelFrom" | "labelTo" | "labelAgent" | "labelTool" | "labelResourcePrefix";

const words = (problem: LinkProblemWords) => issueOf(problem);
/** Checks `ok`, else adds a custom issue carrying `problem`'s words (built-in checks would drop them). */
const check =
  <T>(ok: (value: T) => boolean, problem: LinkProblemWords) =>
  (value: T, ctx: z.RefinementCtx) => {
    if (!ok(value)) ctx.addIssue({ code: "custom", ...words(problem) });
  };

/** YYYY-MM-DD of a day that exists (not 2026-02-30). */
function isDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}
const date = (label: Label) => z.string().superRefine(check(isDate, { key: "notDate", values: { label: { key: label } } }));
const filter = (label: Label) =>
  z
    .string()
    .trim()
    .superRefine(check((value: string) => value.length > 0, { key: "notEmpty", values: { label: { key: label } } }))
    .superRefine(
      check((value: string) => value.length <= ID_MAX_LENGTH, {
        key: "tooLong",
        values: { label: { key: label }, limit: String(ID_MAX_LENGTH) },
      }),
    )
    .optional();
const oneOf = <const Options extends readonly string[]>(options: Options, subject: string) =>
  z
    .string()
    .superRefine(check((value: string) => options.includes(value), { key: "oneOf", values: { subject, options: options.join(", ") } }))
    .transform((value) => value as Options[number])
    .optional();

export const insightsQuery = z
  .object({
    period: oneOf(INSIGHT_PERIODS, "period"),
    from: date("labelFrom").optional(),
    to: date("labelTo").optional(),
    agentId: filter("labelAgent"),
    toolName: filter("labelTool"),
    resourcePrefix: filter("labelResourcePrefix"),
    risk: oneOf(INSIGHT_RISKS, "risk"),
    timeZone: z
      .string()
      .refine(isTimeZone, words({ key: "timeZone", values: { param: "timeZone", example: "Europe/Berlin" } }))
      .optional(),
    format: oneOf(["json", "csv"], "format"),
  })
  .strict()
  .superRefine((query, ctx) => {
    // Each issue names a parameter the request has, so the page can leave exactly that one out.
    if ((query.from === undefined) !== (query.to === undefined)) {
      ctx.addIssue({ code: "custom", path: [query.from ? "from" : "to"], ...words({ key: "fromAndTo" }) });
    }
    if (query.from && query.period) ctx.addIssue({ code: "custom", path: ["period"], ...words({ key: "periodOrDates" }) });
    if (query.from && query.to) {
      const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1;
      if (days < 1) ctx.addIssue({ code: "custom", path: ["to"], ...words({ key: "fromAfterTo" }) });
      if (days > MAX_PERIOD_DAYS)
        ctx.addIssue({ code: "custom", path: ["to"], ...words({ key: "atMostDays", values: { limit: String(MAX_PERIOD_DAYS) } }) });
    }
  });

export type InsightsQuery = z.output<typeof insightsQuery>;

/** The page's parameters as applied: a bad one is left out and reported, the others still apply (the lists' policy). */
export function sanitizeInsightsQuery(raw: Record<string, string>): SanitizedQuery<InsightsQuery> {
  return sanitizeQuery(insightsQuery, raw, "unreadableInsights");
}
