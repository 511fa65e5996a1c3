"use server";

import { getMastra } from "../mastra/index.ts";
import { authorize } from "./authorize.ts";
import { runAction, type ActionResult } from "./result.ts";

export interface AgentDto {
  id: string;
  name: string;
  description?: string;
}

export async function listAgents(): Promise<ActionResult<AgentDto[]>> {
  const access = await authorize("read");
  if (!access.ok) return { ok: false, error: access.error };
  return runAction("listAgents", async () => {
    const mastra = await getMastra();
    return Object.values(mastra.listAgents())
      .map((agent) => ({ id: agent.id, name: agent.name, description: agent.getDescription?.() || undefined }))
      .sort((a, b) => a.name.localeCompare(b.name));
  });
}
