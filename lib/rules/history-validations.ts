/**
 * What the rules' looks at the past take (a backtest, the suggested rules, a rule created from a
 * suggestion), checked with zod on the server whatever the browser sent: a period of 1 to 90 days,
 * a share of wrong decisions from 0 to 1, unknown fields refused.
 */
import { z } from "zod";
import { dryRunRuleSchema, optionalName, ruleInputSchema } from "./validations.ts";

export const MAX_DAYS = 90;
export const DEFAULT_DAYS = 30;
/** A suggestion needs at least this many past calls decided its way, unless asked otherwise. */
export const DEFAULT_MIN_CALLS = 20;

const days = z
  .number()
  .int("The period is a whole number of days")
  .min(1, "The period is at least 1 day")
  .max(MAX_DAYS, `The period is at most ${MAX_DAYS} days`)
  .default(DEFAULT_DAYS);

export const backtestSchema = z
  .object({
    rule: dryRunRuleSchema,
    days,
    /** Whose decisions count as what was decided: people's, or also rules' and suggestions'. */
    include: z.enum(["people", "all"]).default("people"),
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export const suggestionsSchema = z
  .object({
    days,
    /** The fewest past calls a suggested rule must have decided. */
    minCalls: z.number().int().min(1).max(100_000).default(DEFAULT_MIN_CALLS),
    /** The largest share of those it may have decided the other way (0: never wrong). */
    maxWrongShare: z
      .number()
      .min(0, "The share of wrong decisions is from 0 to 1")
      .max(1, "The share of wrong decisions is from 0 to 1")
      .default(0),
    /** Only calls of this agent, this tool, resources starting with this. */
    agentId: optionalName,
    toolName: optionalName,
    resourcePrefix: optionalName,
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(50).default(10),
  })
  .strict();

/** A suggestion taken: the rule as suggested (created disabled, whatever `enabled` says otherwise), and the period its backtest covers. */
export const acceptSuggestionSchema = z
  .object({
    rule: ruleInputSchema.refine((rule) => !rule.enabled, {
      path: ["enabled"],
      message: "A suggested rule is created disabled: enabling it is an admin's own act",
    }),
    days,
  })
  .strict();
