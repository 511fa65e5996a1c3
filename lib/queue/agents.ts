/**
 * The agents this console serves, as the pages show them (filters, names next to ids). A read for
 * server components that have already checked access; no browser calls it.
 */
import { getMastra } from "../mastra/index.ts";
import type { AgentDto } from "./dto.ts";

export async function listConsoleAgents(): Promise<AgentDto[]> {
  const mastra = await getMastra();
  return Object.values(mastra.listAgents())
    .map((agent) => ({ id: agent.id, name: agent.name, description: agent.getDescription?.() || undefined }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
