/**
 * The console's own rules as admins set them: expiry rules (/admin/expiry) and per-agent review
 * settings (/admin/agents), through their server actions and /api/admin/* alike.
 */
import { z } from "zod";
import { listReviewSettings, reviewSettingInput, saveReviewSetting } from "../assignments/review-settings.ts";
import { AppError } from "../errors.ts";
import { listConsoleAgents } from "../queue/agents.ts";
import { deleteExpiryRule, expiryRuleInput, expiryRuleKey, listExpiryRules, saveExpiryRule } from "../settings/expiry-rules.ts";
import { operation } from "./operation.ts";

export const listExpiryRulesOperation = operation({
  name: "listExpiryRules",
  permission: "configure",
  input: z.object({}).strict(),
  run: () => listExpiryRules(),
});

/** Creates or replaces the rule of (agent, tool). */
export const saveExpiryRuleOperation = operation({
  name: "saveExpiryRule",
  permission: "configure",
  input: expiryRuleInput,
  run: async (rule, { actor }) => {
    const saved = await saveExpiryRule(rule, actor.email);
    return {
      agentId: saved.agentId,
      toolName: saved.toolName,
      afterMinutes: saved.afterMinutes,
      mode: saved.mode,
      warnMinutes: saved.warnMinutes,
    };
  },
});

export const deleteExpiryRuleOperation = operation({
  name: "deleteExpiryRule",
  permission: "configure",
  input: expiryRuleKey,
  run: async (key) => {
    if (!(await deleteExpiryRule(key))) {
      const which = key.toolName ? `tool "${key.toolName}" of agent "${key.agentId}"` : `agent "${key.agentId}"`;
      throw new AppError("expiry_rule_not_found", `There is no expiry rule for ${which} (anymore).`);
    }
    return key;
  },
});

/** Every agent the console serves with its review setting (the default, off, where none was saved). */
export async function listAgentReviewSettings() {
  const [agents, settings] = await Promise.all([listConsoleAgents(), listReviewSettings()]);
  const byAgent = new Map(settings.map((setting) => [setting.agentId, setting]));
  return agents.map((agent) => {
    const setting = byAgent.get(agent.id);
    return {
      id: agent.id,
      name: agent.name,
      kind: agent.kind,
      onlyAssigneeDecides: setting?.onlyAssigneeDecides ?? false,
      allowTrust: setting?.allowTrust ?? true,
      updatedBy: setting?.updatedBy ?? null,
      updatedAt: setting?.updatedAt.toISOString() ?? null,
    };
  });
}

export const listReviewSettingsOperation = operation({
  name: "listReviewSettings",
  permission: "configure",
  input: z.object({}).strict(),
  run: () => listAgentReviewSettings(),
});

/** An admin turns "only the assignee decides" or "allow trust" on or off for one agent the console serves. */
export const saveReviewSettingOperation = operation({
  name: "saveReviewSetting",
  permission: "configure",
  input: reviewSettingInput,
  run: async (setting, { actor }) => {
    const servedAgentIds = (await listConsoleAgents()).map((agent) => agent.id);
    const saved = await saveReviewSetting(setting, { updatedBy: actor.email, servedAgentIds });
    return { agentId: saved.agentId, onlyAssigneeDecides: saved.onlyAssigneeDecides, allowTrust: saved.allowTrust };
  },
});
