/**
 * Rules that decide for you (lib/rules), as /admin/rules and /api/admin/rules run them: admins only
 * ("configure"), every input checked with zod here whatever the browser sent.
 */
import { z } from "zod";
import { getDb } from "../db/client.ts";
import { applyRuleToWaitingCalls } from "../rules/apply.ts";
import { backtestRule, keptBacktestOf } from "../rules/backtest.ts";
import { acceptSuggestionSchema, backtestSchema, suggestionsSchema } from "../rules/history-validations.ts";
import { proposeRules } from "../rules/proposals.ts";
import { createRule, deleteRule, listRules, listRuleVersions, updateRule } from "../rules/store.ts";
import { applyRuleSchema, dryRunSchema, ruleIdSchema, ruleInputSchema, ruleUpdateSchema } from "../rules/validations.ts";
import { dryRunRule } from "../rules/waiting-calls.ts";
import { operation } from "./operation.ts";

export const listRulesOperation = operation({
  name: "listRules",
  permission: "configure",
  input: z.object({}).strict(),
  run: async () => ({ rules: await listRules(await getDb()) }),
});

export const createRuleOperation = operation({
  name: "createRule",
  permission: "configure",
  input: ruleInputSchema,
  run: async (input, { actor }) => createRule(await getDb(), input, actor.email),
});

export const updateRuleOperation = operation({
  name: "updateRule",
  permission: "configure",
  input: ruleUpdateSchema,
  run: async ({ id, ...input }, { actor }) => updateRule(await getDb(), id, input, actor.email),
});

export const deleteRuleOperation = operation({
  name: "deleteRule",
  permission: "configure",
  input: ruleIdSchema,
  run: async ({ id }, { actor }) => {
    await deleteRule(await getDb(), id, actor.email);
    return { id, deleted: true };
  },
});

export const ruleVersionsOperation = operation({
  name: "listRuleVersions",
  permission: "configure",
  input: ruleIdSchema,
  run: async ({ id }) => ({ id, versions: await listRuleVersions(await getDb(), id) }),
});

export const dryRunRuleOperation = operation({
  name: "dryRunRule",
  permission: "configure",
  input: dryRunSchema,
  run: async ({ rule, page, pageSize }) => dryRunRule(await getDb(), rule, { page, pageSize }),
});

export const applyRuleOperation = operation({
  name: "applyRule",
  permission: "configure",
  input: applyRuleSchema,
  run: ({ id }) => applyRuleToWaitingCalls(id),
});

export const backtestRuleOperation = operation({
  name: "backtestRule",
  permission: "configure",
  input: backtestSchema,
  run: async ({ rule: { position: _position, ...rule }, ...options }) => backtestRule(await getDb(), rule, options),
});

export const suggestRulesOperation = operation({
  name: "suggestRules",
  permission: "configure",
  input: suggestionsSchema,
  run: async (options) => proposeRules(await getDb(), options),
});

/** A suggested rule taken: created disabled, its backtest over the period kept with version 1. */
export const acceptSuggestedRuleOperation = operation({
  name: "acceptSuggestedRule",
  permission: "configure",
  input: acceptSuggestionSchema,
  run: async ({ rule, days }, { actor }) => {
    const db = await getDb();
    const { position: _position, ...replayed } = rule;
    return createRule(db, { ...rule, enabled: false }, actor.email, { backtest: await keptBacktestOf(db, replayed, days) });
  },
});
