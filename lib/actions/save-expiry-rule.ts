"use server";

import { expiryRuleInput, saveExpiryRule as save } from "../settings/expiry-rules.ts";
import { defineAction } from "./define-action.ts";

export const saveExpiryRule = defineAction(
  "saveExpiryRule",
  { permission: "configure", input: expiryRuleInput },
  async (rule, { actor }) => {
    const saved = await save(rule, actor.email);
    return {
      agentId: saved.agentId,
      toolName: saved.toolName,
      afterMinutes: saved.afterMinutes,
      mode: saved.mode,
      warnMinutes: saved.warnMinutes,
    };
  },
);
