/**
 * What an insights request may ask, checked with zod on the server (GET /api/insights, the page's
 * URL): a period of the last 7, 30 or 90 days, or from/to dates (inclusive, at most 366 days), in
 * the viewer's time zone; filters by agent, tool, resource prefix and risk. Browser-safe.
 */
import { z } from "zod";
import { isTimeZone } from "../i18n/time-zones.ts";
import { RISKS } from "../risk.ts";

export const INSIGHT_PERIODS = ["7", "30", "90"] as const;
export const INSIGHT_RISKS = [...RISKS, "unrated"] as const;
export const MAX_PERIOD_DAYS = 366;
export const DEFAULT_PERIOD_DAYS = 30;

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD")
  .refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    "not a date",
  );
const filter = z.string().trim().min(1).max(256).optional();

export const insightsQuery = z
  .object({
    period: z.enum(INSIGHT_PERIODS).optional(),
    from: date.optional(),
    to: date.optional(),
    agentId: filter,
    toolName: filter,
    resourcePrefix: filter,
    risk: z.enum(INSIGHT_RISKS).optional(),
    timeZone: z.string().refine(isTimeZone, "an IANA time zone, like Europe/Berlin").optional(),
    format: z.enum(["json", "csv"]).optional(),
  })
  .strict()
  .superRefine((query, ctx) => {
    if ((query.from === undefined) !== (query.to === undefined)) {
      ctx.addIssue({ code: "custom", path: [query.from ? "to" : "from"], message: "from and to go together" });
    }
    if (query.from && query.period) ctx.addIssue({ code: "custom", path: ["period"], message: "either a period or from/to, not both" });
    if (query.from && query.to) {
      const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1;
      if (days < 1) ctx.addIssue({ code: "custom", path: ["to"], message: "to is before from" });
      if (days > MAX_PERIOD_DAYS) ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${MAX_PERIOD_DAYS} days` });
    }
  });

export type InsightsQuery = z.output<typeof insightsQuery>;
