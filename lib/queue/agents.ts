/**
 * The agents and workflows this console serves, as the pages show them (filters, names next to
 * ids). A workflow goes by its owner key, the id its runs are listed and filtered under. A read for
 * server components that have already checked access; no browser calls it.
 */
import type { AnyWorkflow } from "@mastra/core/workflows";
import { getMastra } from "../mastra/index.ts";
import { workflowOwnerKey } from "@agent-approvals/mastra-store";
import type { AgentDto } from "./dto.ts";

export async function listConsoleAgents(): Promise<AgentDto[]> {
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

/** "refund-approval" → "Refund approval": workflows have an id, not a display name. */
function humanize(id: string): string {
  const words = id.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
