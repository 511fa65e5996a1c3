/**
 * Where a decided call's run stands, read from the store without parsing snapshots, and settling
 * what Mastra leaves of a run that will not continue. Used while carrying a decision out and by
 * recovery.
 */
import type { Db } from "../db/client.ts";
import { AGENT_LOOP_WORKFLOWS, type AgentRunToolCall } from "../store/snapshot-reader.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";

type SnapshotReader = Pick<Db, "workflowSnapshot">;

/**
 * Where the decided call's run stands, read from its outer (agent-loop) snapshot, the one Mastra
 * resumes. When a run ends Mastra deletes the outer snapshot first, then the inner one: an outer
 * snapshot that is gone means the run finished, even if an inner one was left behind.
 */
export async function whereIsTheRun(db: SnapshotReader, decision: Pick<ToolCallDecision, "runId" | "toolCallId">): Promise<RunPosition> {
  const outer = await db.workflowSnapshot.findFirst({
    where: { runId: decision.runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } },
    select: { status: true, toolCalls: true },
  });
  if (!outer) return "finished";
  if (outer.status !== "suspended") return `stopped (${outer.status})`;
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
 * would run the tool again). A run that has moved on to another call, or stopped otherwise, is left alone.
 */
export async function settleRun(db: Db, runId: string, toolCallId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const position = await whereIsTheRun(tx, { runId, toolCallId });
    if (position === "finished" || position === "pending") await tx.workflowSnapshot.deleteMany({ where: { runId } });
  });
}
