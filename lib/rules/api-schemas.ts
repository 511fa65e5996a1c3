/**
 * What /api/admin/rules* answer, as zod schemas for the OpenAPI document (lib/openapi): the shapes
 * of dto.ts and validations.ts `RuleDefinition`; lib/openapi/declare.ts checks each against its type.
 */
import { z } from "zod";
import { RISKS } from "../risk.ts";
import { CALL_KINDS, EFFECTS, OPERATORS } from "./validations.ts";

const date = z.string().meta({ format: "date-time" });
const effectCounts = z.object(
  Object.fromEntries(EFFECTS.map((effect) => [effect, z.number().int()])) as Record<(typeof EFFECTS)[number], z.ZodNumber>,
);

const proposedRuleFields = {
  name: z.string(),
  enabled: z.boolean(),
  agentId: z.string().nullable(),
  toolName: z.string().nullable(),
  resource: z.string().nullable(),
  resourceMatch: z.enum(["exact", "prefix"]),
  callKind: z.enum(CALL_KINDS).nullable(),
  conditions: z.array(z.object({ path: z.string(), op: z.enum(OPERATORS), value: z.unknown().optional() })),
  effect: z.enum(EFFECTS),
  reason: z.string().nullable(),
  approvals: z.number().int().nullable(),
  risk: z.enum(RISKS),
};

export const ruleSchema = z
  .object({
    ...proposedRuleFields,
    id: z.string(),
    position: z.number().int(),
    version: z.number().int(),
    expiresAt: z.string().nullable().meta({ description: "When a trusted rule (Approve and trust) ends; null for admins' rules." }),
    trustedBy: z.string().nullable(),
  })
  .meta({ id: "Rule" });

export const ruleListSchema = z.object({ rules: z.array(ruleSchema) });
export const deletedRuleSchema = z.object({ id: z.string(), deleted: z.boolean() });

const summaryFields = {
  days: z.number().int(),
  from: date,
  to: date,
  include: z.enum(["people", "all"]),
  matched: z.number().int(),
  wouldDecide: effectCounts,
  agreed: z.number().int(),
  disagreed: z.number().int(),
  waitSavedMs: z.number(),
  waitsUnknown: z.number().int(),
  others: z.object({
    rule: z.object({ matched: z.number().int(), disagreed: z.number().int() }),
    suggestion: z.object({ matched: z.number().int(), disagreed: z.number().int() }),
    expiry: z.object({ matched: z.number().int() }),
  }),
};

const disagreementSchema = z
  .object({
    runId: z.string(),
    toolCallId: z.string(),
    agentId: z.string(),
    toolName: z.string().nullable(),
    resourceId: z.string().nullable(),
    decided: z.enum(["approve", "decline"]),
    decidedBy: z.enum(["person", "rule", "suggestion"]),
    reviewer: z.string(),
    decidedAt: date,
    reason: z.string().nullable(),
    wouldDo: z.enum(["approve", "decline"]),
    args: z.string().meta({ description: "The arguments as JSON, cut at 300 characters." }),
  })
  .meta({ id: "BacktestDisagreement" });

const keptBacktestSchema = z.object({ ...summaryFields, disagreements: z.array(disagreementSchema) }).meta({ id: "KeptBacktest" });

export const backtestResultSchema = z.object({
  ...summaryFields,
  page: z.number().int(),
  pageSize: z.number().int(),
  disagreements: z.array(disagreementSchema),
});

export const ruleVersionsSchema = z.object({
  id: z.string(),
  versions: z.array(
    z.object({
      version: z.number().int(),
      changedBy: z.string(),
      changedAt: date,
      change: z.string(),
      rule: ruleSchema,
      backtest: keptBacktestSchema.nullable(),
    }),
  ),
});

export const dryRunResultSchema = z.object({
  waiting: z.number().int(),
  counts: effectCounts,
  matched: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  calls: z.array(
    z.object({
      runId: z.string(),
      toolCallId: z.string(),
      agentId: z.string(),
      toolName: z.string().nullable(),
      resourceId: z.string().nullable(),
      kind: z.enum(CALL_KINDS),
      effect: z.enum(EFFECTS),
      args: z.string(),
    }),
  ),
});

export const appliedRuleSchema = z.object({
  ruleId: z.string(),
  version: z.number().int(),
  matched: z.number().int(),
  decided: z.number().int(),
  more: z.boolean().meta({ description: "More calls match than one application decides: apply again." }),
});

export const proposalsResultSchema = z.object({
  days: z.number().int(),
  from: date,
  to: date,
  minCalls: z.number().int(),
  maxWrongShare: z.number(),
  considered: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  proposals: z.array(z.object({ key: z.string(), rule: z.object(proposedRuleFields), backtest: keptBacktestSchema })),
  ratedHigh: z.array(z.object({ agentId: z.string(), toolName: z.string() })),
});
