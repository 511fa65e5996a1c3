/** One suspended agent run with everything a reviewer needs to decide on its pending calls. */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { loadExecutionSnapshot } from "@agent-approvals/mastra-store";
import { readQueuedToolCalls, readResumeSchema, type AgentRunToolCall, type QueuedToolCall } from "@agent-approvals/mastra-store";
import { LISTED, toConsoleRun, type ConsoleRun } from "./list-suspended-runs.ts";

export interface PendingToolCall extends AgentRunToolCall {
  /** JSON Schema of the resume data the tool declared (suspend() calls), as Mastra recorded it. */
  resumeSchema?: unknown;
}

export interface RunDetail extends Omit<ConsoleRun, "toolCalls"> {
  createdAt: Date;
  toolCalls: PendingToolCall[];
  /** Calls of the same step that Mastra reaches only after the pending ones are decided (not decidable yet). */
  queuedCalls: QueuedToolCall[];
}

/** A listed run: a suspended row with an owner (an agent's outer run, or a workflow's run). */
const suspendedAgentRun = (runId: string) => ({
  runId,
  status: "suspended",
  agentId: { not: null },
});

/** The stored agent run `runId` while it is suspended, else null, with each call's resume schema. */
export async function getSuspendedRun(runId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<RunDetail | null> {
  const db = await getDb(databaseUrl);
  const row = await db.workflowSnapshot.findFirst({ where: suspendedAgentRun(runId) });
  if (!row) return null;
  const run = toConsoleRun(row);
  const snapshot = JSON.parse(row.snapshot);
  const execution = await loadExecutionSnapshot(db, row.workflowName, runId);
  return {
    ...run,
    createdAt: row.createdAt,
    // A workflow step's schema is not in its snapshot: lib/queue/views.ts adds it from the workflow.
    toolCalls: run.toolCalls.map((call) =>
      call.requiresApproval || !call.toolCallId || call.step
        ? call
        : { ...call, resumeSchema: readResumeSchema(snapshot, call.toolCallId, execution) },
    ),
    queuedCalls: readQueuedToolCalls(snapshot, execution),
  };
}

/**
 * The same run as the listing shows it, without reading its snapshot (~14 kB of JSON): what a
 * decision checks (owner, pending calls) before it is recorded.
 */
export async function findSuspendedRun(runId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<ConsoleRun | null> {
  const db = await getDb(databaseUrl);
  const row = await db.workflowSnapshot.findFirst({ where: suspendedAgentRun(runId), select: LISTED });
  return row ? toConsoleRun(row) : null;
}
