/**
 * Rules that decide for you (lib/rules), as /admin/rules and /api/admin/rules run them: admins only
 * ("configure"), every input checked with zod here whatever the browser sent.
 */
import { z } from "zod";
import { getDb } from "../db/client.ts";
import { applyRuleToWaitingCalls } from "../rules/apply.ts";
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
