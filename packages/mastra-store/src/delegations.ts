/**
 * Nested workflows (a workflow step that is a workflow) are set aside the same way: Mastra stores the
 * nested workflow's row under the outer run's id, and the outer run is the one resumed.
 *
 * Supervisor agents (Mastra's `agents` option): when a sub-agent's tool waits, Mastra stores two
 * suspended agent-loop runs, the sub-agent's own (inner) run and the supervisor's (outer) run, whose
 * pending call names the inner run (`suspendedToolRunId`). The contract lists the outer run, the one
 * to continue (through the supervisor, which continues the sub-agent). Here the outer run's calls get
 * their delegation path, and the inner run is set aside so that nothing in the console counts it.
 */
import type { WorkflowRunState } from "@mastra/core/workflows";
import type { StoreDb } from "./database.ts";
import {
  AGENT_LOOP_WORKFLOWS,
  delegatedPath,
  readSnapshot,
  type AgentRunToolCall,
  type Delegation,
  type SnapshotSummary,
} from "./snapshot-reader.ts";

/**
 * `readSnapshot`, with each delegated call's path read from the inner run's row, which Mastra wrote
 * just before: its agent from its snapshot (the row's own agent_id is set aside), a nested path
 * (a sub-agent that is a supervisor itself) from its stored calls.
 */
export async function readSnapshotWithPaths(
  db: Pick<StoreDb, "workflowSnapshot">,
  workflowName: string,
  snapshot: WorkflowRunState,
): Promise<SnapshotSummary> {
  const summary = readSnapshot(workflowName, snapshot);
  for (const { toolCallId, innerRunId, innerWorkflowName } of summary.delegations) {
    if (innerWorkflowName) continue; // a nested workflow: its step is the outer call's path already
    const call = summary.toolCalls?.find((candidate) => candidate.toolCallId === toolCallId);
    if (!call) continue;
    const inner = await db.workflowSnapshot.findFirst({
      where: { runId: innerRunId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } },
      select: { workflowName: true, snapshot: true, toolCalls: true },
    });
    if (!inner) continue;
    const path = delegatedPath(summary.agentId!, call, {
      agentId: readSnapshot(inner.workflowName, JSON.parse(inner.snapshot) as WorkflowRunState).agentId,
      toolCalls: inner.toolCalls ? (JSON.parse(inner.toolCalls) as AgentRunToolCall[]) : null,
    });
    if (path) call.path = path;
  }
  return summary;
}

/**
 * A sub-agent's inner run that a supervisor's suspended run waits on is not a pending run of its
 * own: it is continued through the supervisor (continued directly, the supervisor would wait
 * forever). Its row keeps Mastra's snapshot, status and calls (Mastra's own
 * `subAgent.listSuspendedRuns()` still finds it) but loses the owner and the call count that every
 * listing, thread summary and total of the console is derived from (agent_id, tool_call_count).
 * Mastra writes the inner run before the outer one: for the milliseconds in between the inner run
 * counts. A later write of the inner run (when it is continued) derives its columns afresh.
 */
export async function setDelegatedRunsAside(
  db: Pick<StoreDb, "workflowSnapshot" | "waitingToolCall">,
  delegations: Delegation[],
): Promise<void> {
  if (delegations.length === 0) return;
  // The inner run's calls were recorded as waiting when Mastra wrote it: unless a reader took them in
  // those milliseconds, they are never announced (call.waiting, webhooks, insights), as nothing counts them.
  await db.waitingToolCall.deleteMany({ where: { runId: { in: delegations.map(({ innerRunId }) => innerRunId) } } });
  await db.workflowSnapshot.updateMany({
    where: {
      OR: delegations.map(({ innerRunId, innerWorkflowName }) => ({
        runId: innerRunId,
        workflowName: innerWorkflowName ?? { in: [...AGENT_LOOP_WORKFLOWS] },
      })),
      agentId: { not: null },
    },
    data: { agentId: null, toolCallCount: 0 },
  });
}
