"use server";

import { reviewSettingInput, saveReviewSetting as save } from "../assignments/review-settings.ts";
import { listConsoleAgents } from "../queue/agents.ts";
import { defineAction } from "./define-action.ts";

/** An admin turns "only the assignee decides" on or off for one agent the console serves. */
export const saveReviewSetting = defineAction(
  "saveReviewSetting",
  { permission: "configure", input: reviewSettingInput },
  async (setting, { actor }) => {
    const servedAgentIds = (await listConsoleAgents()).map((agent) => agent.id);
    const saved = await save(setting, { updatedBy: actor.email, servedAgentIds });
    return { agentId: saved.agentId, onlyAssigneeDecides: saved.onlyAssigneeDecides };
  },
);
