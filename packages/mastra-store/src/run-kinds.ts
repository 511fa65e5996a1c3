/**
 * The kinds of runs the store tells apart by their workflow name, and how a run's owner (an agent,
 * or a workflow) is keyed in the stored columns. No Mastra layout here: snapshot-reader.ts has it.
 * Dependency-free: the browser uses it too (who continued a run).
 */

/** The workflows an agent run persists as its outer, resumable run (the ones the contract lists). */
export const AGENT_LOOP_WORKFLOWS = ["agentic-loop", "durable-agentic-loop"] as const;

/**
 * What kind of run waits: an agent's run (Mastra's `agentic-loop`), a durable agent's
 * (`durable-agentic-loop`), or a plain workflow's whose step called `suspend()`.
 */
export type RunShape = "agent" | "durable-agent" | "workflow";

export function runShapeOf(workflowName: string): RunShape {
  if (workflowName === "durable-agentic-loop") return "durable-agent";
  return workflowName === "agentic-loop" ? "agent" : "workflow";
}

/**
 * Rows Mastra writes beside an agent run's outer row, under the same runId: the nested loop body
 * (a plain agent's `executionWorkflow`, a durable agent's `durable-agentic-execution`). Never a run
 * to resume on their own (the agent-loop row is); deleted with the run.
 */
export const MASTRA_INTERNAL_WORKFLOWS: readonly string[] = ["executionWorkflow", "durable-agentic-execution"];

/**
 * The internal row that holds a run's step messages when the outer row does not: a durable
 * agent's (a plain agent's outer row carries them in its `__streamState`).
 */
export function executionWorkflowOf(workflowName: string): string | undefined {
  return workflowName === "durable-agentic-loop" ? "durable-agentic-execution" : undefined;
}

/**
 * A workflow run's owner, as stored and listed where an agent run has its agent's id: the prefix
 * keeps a workflow and an agent with the same id apart in every filter, count and decision.
 */
const WORKFLOW_OWNER_PREFIX = "workflow:";

export function workflowOwnerKey(workflowId: string): string {
  return `${WORKFLOW_OWNER_PREFIX}${workflowId}`;
}

/** The workflow id of a workflow run's owner key, else undefined (an agent's id). */
export function workflowIdOfOwner(ownerKey: string): string | undefined {
  return ownerKey.startsWith(WORKFLOW_OWNER_PREFIX) ? ownerKey.slice(WORKFLOW_OWNER_PREFIX.length) : undefined;
}

export function isAgentLoopWorkflow(workflowName: string): boolean {
  return (AGENT_LOOP_WORKFLOWS as readonly string[]).includes(workflowName);
}

/** Who carries a decided run on, in the console's words. */
export function continuerOf(ownerKey: string): "the agent" | "the workflow" {
  return workflowIdOfOwner(ownerKey) === undefined ? "the agent" : "the workflow";
}
