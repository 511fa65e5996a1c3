/**
 * What a rule is, checked with zod on the server (the admin routes) whatever the browser sent; the
 * rule form runs the same schema. A path that is not one, or a regular expression the linear-time
 * engine (re2js) cannot run — backreferences, lookaround, a syntax error — is refused with a message
 * naming the condition, never stored.
 */
import { RE2JS } from "re2js";
import { z } from "zod";
import { MAX_PATH_CHARS, parsePath } from "./path.ts";
import { RISKS, type Risk } from "../risk.ts";

export const OPERATORS = ["equals", "in", "<", "<=", ">", ">=", "matches", "exists"] as const;
export type Operator = (typeof OPERATORS)[number];
export const EFFECTS = ["approve", "decline", "require_approvals", "ask"] as const;
export type Effect = (typeof EFFECTS)[number];
export { RISKS, type Risk };
export const CALL_KINDS = ["approval", "input"] as const;
export type CallKind = (typeof CALL_KINDS)[number];

export const MAX_PATTERN_CHARS = 500;
export const MAX_CONDITIONS = 20;
export const MAX_IN_VALUES = 100;

/** Why a pattern cannot be run by the linear-time engine, or null when it can. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_CHARS) return `is longer than ${MAX_PATTERN_CHARS} characters`;
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    return `is not a regular expression the linear-time engine runs (${(error as Error).message}); backreferences and lookaround are not supported`;
  }
}

const comparable = z.union([z.number().finite(), z.string().max(1000)]);
const scalar = z.union([z.number().finite(), z.string().max(1000), z.boolean(), z.null()]);

export const conditionSchema = z
  .object({
    path: z.string().min(1, "A condition needs a path into the arguments").max(MAX_PATH_CHARS),
    op: z.enum(OPERATORS),
    value: z.unknown().optional(),
  })
  .strict()
  .superRefine((condition, ctx) => {
    if (!parsePath(condition.path)) {
      ctx.addIssue({
        code: "custom",
        path: ["path"],
        message: `"${condition.path.slice(0, 60)}" is not a path into the arguments: use names and [n], like amount or items[0].sku`,
      });
    }
    const fail = (message: string) => ctx.addIssue({ code: "custom", path: ["value"], message });
    switch (condition.op) {
      case "exists":
        if (condition.value !== undefined) fail("exists takes no value");
        return;
      case "equals":
        if (!scalar.safeParse(condition.value).success) fail("equals compares with a number, a string, true, false or null");
        return;
      case "in":
        if (!z.array(scalar).min(1).max(MAX_IN_VALUES).safeParse(condition.value).success) {
          fail(`in takes a list of 1 to ${MAX_IN_VALUES} numbers, strings, booleans or nulls`);
        }
        return;
      case "matches": {
        if (typeof condition.value !== "string") return fail("matches takes a regular expression as a string");
        const problem = patternProblem(condition.value);
        if (problem) fail(`The pattern ${problem}`);
        return;
      }
      default:
        if (!comparable.safeParse(condition.value).success) fail(`${condition.op} compares with a number or a string`);
    }
  });
export type Condition = { path: string; op: Operator; value?: unknown };

export const optionalName = z
  .string()
  .max(200)
  .transform((value) => value.trim() || null)
  .nullish()
  .transform((value) => value ?? null);

const ruleShape = {
  name: z.string().trim().min(1, "A rule needs a name").max(100),
  enabled: z.boolean().default(false),
  agentId: optionalName,
  toolName: optionalName,
  resource: optionalName,
  resourceMatch: z.enum(["exact", "prefix"]).default("exact"),
  callKind: z
    .enum(CALL_KINDS)
    .nullish()
    .transform((value) => value ?? null),
  conditions: z.array(conditionSchema).max(MAX_CONDITIONS).default([]),
  effect: z.enum(EFFECTS),
  reason: z
    .string()
    .trim()
    .max(1000)
    .nullish()
    .transform((value) => value || null),
  approvals: z
    .number()
    .int()
    .min(2)
    .max(3)
    .nullish()
    .transform((value) => value ?? null),
  risk: z.enum(RISKS).default("medium"),
  /** Where in the list (0 = first); omitted: last when created, unchanged when edited. */
  position: z.number().int().min(0).max(10_000).optional(),
};

type RuleShapeOutput = z.output<z.ZodObject<typeof ruleShape>>;

function checkEffect(rule: RuleShapeOutput, ctx: z.RefinementCtx) {
  if (rule.effect === "require_approvals" && rule.approvals === null) {
    ctx.addIssue({ code: "custom", path: ["approvals"], message: "Require approvals needs a number of approvals, 2 or 3" });
  }
  if (rule.effect !== "require_approvals" && rule.approvals !== null) {
    ctx.addIssue({ code: "custom", path: ["approvals"], message: "Only require_approvals takes a number of approvals" });
  }
  if (rule.effect === "decline" && !rule.reason) {
    ctx.addIssue({ code: "custom", path: ["reason"], message: "Declining needs a reason: it goes to the model" });
  }
  if (rule.effect !== "decline" && rule.reason) {
    ctx.addIssue({ code: "custom", path: ["reason"], message: "Only decline takes a reason" });
  }
  if ((rule.effect === "approve" || rule.effect === "decline") && rule.callKind === "input") {
    ctx.addIssue({
      code: "custom",
      path: ["callKind"],
      message: "A rule cannot approve or decline an input request: it needs a person's answer",
    });
  }
}

/** A rule as an admin writes it (creating, or replacing every field when editing). */
export const ruleInputSchema = z.object(ruleShape).strict().superRefine(checkEffect);
/** Editing: the rule's id (from the URL) and all its fields. */
export const ruleUpdateSchema = z
  .object({ ...ruleShape, id: z.string().min(1).max(100) })
  .strict()
  .superRefine(checkEffect);
export type RuleInput = z.output<typeof ruleInputSchema>;

/** A stored rule: what the matcher and the admin pages work with. */
export interface RuleDefinition extends Omit<RuleInput, "position"> {
  id: string;
  position: number;
  version: number;
  /**
   * When a rule a reviewer trusted (lib/rules/trust.ts) ends (ISO), and who trusted it; null for
   * the rules admins write. Not in the admin's input: editing a trusted rule keeps both.
   */
  expiresAt: string | null;
  trustedBy: string | null;
}

export const ruleIdSchema = z.object({ id: z.string().min(1).max(100) }).strict();
export const applyRuleSchema = z.object({ id: z.string().min(1).max(100) }).strict();
/** A dry run's (and a backtest's) rule: as written, or a saved one with its end (a trusted rule that ended matches nothing). */
export const dryRunRuleSchema = z
  .object({
    ...ruleShape,
    expiresAt: z.iso
      .datetime({ offset: true })
      .nullish()
      .transform((value) => value ?? null),
  })
  .strict()
  .superRefine(checkEffect);
export const dryRunSchema = z
  .object({
    rule: dryRunRuleSchema,
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(200).default(50),
  })
  .strict();
