/**
 * Per-agent review settings admins set at /admin/agents (decide() applies them through
 * lib/decisions/assignee.ts): with "only the assignee decides" on, a call that has an assignee is theirs alone to decide;
 * off (the default), anyone who may decide can, and the history records whose call it was.
 * "Allow trust" (on by default): reviewers may "Approve and trust" the agent's calls (lib/rules/trust.ts).
 */
import { z } from "zod";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { ID_MAX_LENGTH, idTextProblem } from "../safe-text.ts";

export const reviewSettingInput = z
  .object({
    agentId: z
      .string({ error: "Agent must be text" })
      .trim()
      .min(1, { error: "Agent is required" })
      .max(ID_MAX_LENGTH, { error: `Agent is longer than ${ID_MAX_LENGTH} characters` })
      .refine((text) => !idTextProblem(text), { error: (issue) => `Agent ${idTextProblem(String(issue.input))}` }),
    onlyAssigneeDecides: z.boolean({ error: "onlyAssigneeDecides must be true or false" }).optional(),
    allowTrust: z.boolean({ error: "allowTrust must be true or false" }).optional(),
  })
  .strict()
  // Either switch alone changes only itself.
  .refine((setting) => setting.onlyAssigneeDecides !== undefined || setting.allowTrust !== undefined, {
    error: "Send onlyAssigneeDecides, allowTrust or both (true or false).",
  });

export interface ReviewSetting {
  agentId: string;
  onlyAssigneeDecides: boolean;
  allowTrust: boolean;
  updatedBy: string;
  updatedAt: Date;
}

export async function listReviewSettings(databaseUrl: string = databaseUrlFromEnv()): Promise<ReviewSetting[]> {
  const db = await getDb(databaseUrl);
  return db.agentReviewSetting.findMany({ orderBy: { agentId: "asc" } });
}

/** The agents whose calls only their assignee may decide. */
export async function exclusiveAgents(db: Db, agentIds: string[]): Promise<Set<string>> {
  if (agentIds.length === 0) return new Set();
  const rows = await db.agentReviewSetting.findMany({
    where: { agentId: { in: [...new Set(agentIds)] }, onlyAssigneeDecides: true },
    select: { agentId: true },
  });
  return new Set(rows.map((row) => row.agentId));
}

/** Whether reviewers may "Approve and trust" calls of `agentId` (on unless an admin turned it off). */
export async function trustAllowed(db: Db, agentId: string): Promise<boolean> {
  const setting = await db.agentReviewSetting.findUnique({ where: { agentId }, select: { allowTrust: true } });
  return setting?.allowTrust ?? true;
}

/** Saves one agent's setting (a switch left out keeps its value); `servedAgentIds` are the agents the console serves (lib/queue/agents.ts): no others have one. */
export async function saveReviewSetting(
  setting: z.output<typeof reviewSettingInput>,
  { updatedBy, servedAgentIds }: { updatedBy: string; servedAgentIds: string[] },
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<ReviewSetting> {
  if (!servedAgentIds.includes(setting.agentId)) {
    throw new AppError("invalid_input", `No agent "${setting.agentId}" here: review settings are set per agent the console serves.`);
  }
  const db = await getDb(databaseUrl);
  const data = { onlyAssigneeDecides: setting.onlyAssigneeDecides, allowTrust: setting.allowTrust, updatedBy, updatedAt: new Date() };
  return db.agentReviewSetting.upsert({
    where: { agentId: setting.agentId },
    create: { ...data, agentId: setting.agentId, onlyAssigneeDecides: setting.onlyAssigneeDecides ?? false },
    update: data,
  });
}
