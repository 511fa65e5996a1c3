/**
 * Where a decided call's run stands, read from the store without parsing snapshots, and settling
 * what Mastra leaves of a run that will not continue. Used while carrying a decision out and by
 * recovery.
 */
import type { Db } from "../db/client.ts";
import { loadExecutionSnapshot } from "@agent-approvals/mastra-store";
import { AGENT_LOOP_WORKFLOWS, readQueuedToolCalls, workflowIdOfOwner, type AgentRunToolCall } from "@agent-approvals/mastra-store";
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

/**
 * The outer row's write count (what `durableRunWritten` waits to change) while the run still waits
 * on the decided call, else null.
 */
export async function pendingRowVersion(
  db: SnapshotReader,
  decision: Pick<ToolCallDecision, "runId" | "toolCallId">,
): Promise<number | null> {
  const outer = await db.workflowSnapshot.findFirst({
    where: { runId: decision.runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } },
    select: { version: true, status: true, toolCalls: true },
  });
  return outer?.status === "suspended" && waitsOn(outer.toolCalls, decision.toolCallId) ? outer.version : null;
}

/**
 * A durable agent (Mastra 1.71) ends the stream of a continued run before it writes the run's next
 * suspension or deletes its finished snapshots: until then the store still shows the decided call
 * as pending. Waits (at most `timeoutMs`) until the outer row is gone or was written again as
 * suspended, so a decision is reported applied only once the run's position says so too.
 */
export async function durableRunWritten(db: SnapshotReader, runId: string, versionBefore: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const outer = await db.workflowSnapshot.findFirst({
      where: { runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } },
      select: { version: true, status: true },
    });
    if (!outer || (outer.version !== versionBefore && outer.status === "suspended")) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
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
    select: { workflowName: true, toolCalls: true, snapshot: true },
  });
  if (!outer) return false;
  const pending = outer.toolCalls ? (JSON.parse(outer.toolCalls) as AgentRunToolCall[]) : [];
  if (pending.some((call) => call.toolCallId !== toolCallId)) return true;
  const execution = await loadExecutionSnapshot(db, outer.workflowName, runId);
  return readQueuedToolCalls(JSON.parse(outer.snapshot), execution).length > 0;
}
