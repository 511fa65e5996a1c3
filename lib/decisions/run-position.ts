/**
 * Where a decided call's run stands, read from the store without parsing snapshots, and settling
 * what Mastra leaves of a run that will not continue. Used while carrying a decision out and by
 * recovery.
 */
import type { Db } from "../db/client.ts";
import { AGENT_LOOP_WORKFLOWS, readQueuedToolCalls, workflowIdOfOwner, type AgentRunToolCall } from "../store/snapshot-reader.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";

type SnapshotReader = Pick<Db, "workflowSnapshot">;
type DecidedCall = Pick<ToolCallDecision, "runId" | "toolCallId" | "agentId">;

/** A workflow run keeps its row once it ended, in one of these states (Mastra's run history). */
const ENDED_WORKFLOW_STATES = ["success", "failed", "canceled", "bailed", "tripwire"];

/**
 * Where the decided call's run stands, read from its outer snapshot, the one Mastra resumes (an
 * agent-loop row, or the workflow's own row). When an agent run ends Mastra deletes the outer
 * snapshot first, then the inner one: an outer snapshot that is gone means the run finished, even
 * if an inner one was left behind. A workflow run keeps its row in the state it ended in.
 */
export async function whereIsTheRun(db: SnapshotReader, decision: DecidedCall): Promise<RunPosition> {
  const workflowId = workflowIdOfOwner(decision.agentId);
  const outer = await db.workflowSnapshot.findFirst({
    where: { runId: decision.runId, workflowName: workflowId ?? { in: [...AGENT_LOOP_WORKFLOWS] } },
    select: { status: true, toolCalls: true },
  });
  if (!outer) return "finished";
  if (outer.status !== "suspended")
    return workflowId && ENDED_WORKFLOW_STATES.includes(outer.status) ? "finished" : `stopped (${outer.status})`;
  return waitsOn(outer.toolCalls, decision.toolCallId) ? "pending" : "moved-on";
}

/** Still waiting on the call; waiting on another call; gone; or stopped in another state. */
export type RunPosition = "pending" | "moved-on" | "finished" | `stopped (${string})`;

function waitsOn(toolCalls: string | null, toolCallId: string): boolean {
  return !!toolCalls && (JSON.parse(toolCalls) as AgentRunToolCall[]).some((call) => call.toolCallId === toolCallId);
}

/**
 * Removes what Mastra left of a run that will not continue: its snapshots, when the outer one is
 * gone (an orphaned inner snapshot) or still waits on the call whose tool already ran (resuming it
 * would run the tool again). A run that has moved on to another call, or stopped otherwise, is left
 * alone; so is a run whose snapshot still holds other calls of the same step (pending beside the
 * decided one, or queued behind it): deleting it would silently drop calls nobody decided.
 */
export async function settleRun(db: Db, decision: DecidedCall): Promise<void> {
  // Mastra keeps a workflow's rows as its run history, and writes them before a resume returns:
  // there is nothing left over to settle.
  if (workflowIdOfOwner(decision.agentId) !== undefined) return;
  const { runId, toolCallId } = decision;
  await db.$transaction(async (tx) => {
    const position = await whereIsTheRun(tx, decision);
    if (position === "pending" && (await holdsOtherCalls(tx, runId, toolCallId))) return;
    if (position === "finished" || position === "pending") await tx.workflowSnapshot.deleteMany({ where: { runId } });
  });
}

/** Whether the run's outer snapshot holds calls other than `toolCallId`, pending or queued behind it. */
async function holdsOtherCalls(db: SnapshotReader, runId: string, toolCallId: string): Promise<boolean> {
  const outer = await db.workflowSnapshot.findFirst({
    where: { runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } },
    select: { toolCalls: true, snapshot: true },
  });
  if (!outer) return false;
  const pending = outer.toolCalls ? (JSON.parse(outer.toolCalls) as AgentRunToolCall[]) : [];
  if (pending.some((call) => call.toolCallId !== toolCallId)) return true;
  return readQueuedToolCalls(JSON.parse(outer.snapshot)).length > 0;
}
