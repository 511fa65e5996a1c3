/**
 * The agents and workflows this console serves, as the pages show them (filters, names next to
 * ids). A workflow goes by its owner key, the id its runs are listed and filtered under. In remote
 * mode, the agents the Mastra server lists. A read for server components that have already checked
 * access; no browser calls it.
 */
import type { AnyWorkflow } from "@mastra/core/workflows";
import { getMastra } from "../mastra/index.ts";
import { listRemoteAgents, remoteServer, type RemoteServer } from "../mastra/remote.ts";
import { workflowOwnerKey } from "@agent-approvals/mastra-store";
import type { AgentDto } from "./dto.ts";

export async function listConsoleAgents(): Promise<AgentDto[]> {
  const server = remoteServer();
  if (server) return listServerAgents(server);
  const mastra = await getMastra();
  const agents: AgentDto[] = Object.values(mastra.listAgents()).map((agent) => ({
    id: agent.id,
    name: agent.name,
    description: agent.getDescription?.() || undefined,
    kind: "agent",
  }));
  const workflows: AgentDto[] = Object.values(mastra.listWorkflows() as Record<string, AnyWorkflow>).map((workflow) => ({
    id: workflowOwnerKey(workflow.id),
    name: humanize(workflow.id),
    description: workflow.description,
    kind: "workflow",
  }));
  const byName = (a: AgentDto, b: AgentDto) => a.name.localeCompare(b.name);
  return [...agents.sort(byName), ...workflows.sort(byName)];
}

/**
 * The remote server's agents. A page still shows (runs by their ids, deciding says why it cannot)
 * while the server is unreachable: its list is then empty.
 */
async function listServerAgents(server: RemoteServer): Promise<AgentDto[]> {
  try {
    const agents = await listRemoteAgents(server);
    return agents.map((agent): AgentDto => ({ ...agent, kind: "agent" })).sort((a, b) => a.name.localeCompare(b.name));
  } catch (error) {
    console.error(`[remote] the Mastra server at ${server.url} did not list its agents:`, (error as Error).message);
    return [];
  }
}

/** "refund-approval" → "Refund approval": workflows have an id, not a display name. */
function humanize(id: string): string {
  const words = id.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
