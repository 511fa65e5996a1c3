/** A snapshot as stored: its JSON and the indexed columns read from it, and back. */
import type { WorkflowRun } from "@mastra/core/storage";
import type { WorkflowRunState } from "@mastra/core/workflows";
import type { WorkflowSnapshot } from "./generated/sqlite/client.ts";
import type { SnapshotSummary } from "./snapshot-reader.ts";

/**
 * JSON for snapshots as Mastra's own stores write them: BigInts become strings, functions and
 * symbols vanish, and a circular reference is dropped instead of failing the whole write.
 */
export function serializeSnapshot(value: unknown): string {
  try {
    // The common case, at full speed; BigInts and cycles make JSON.stringify throw.
    return JSON.stringify(value);
  } catch {
    return serializeLeniently(value);
  }
}

function serializeLeniently(value: unknown): string {
  const ancestors: unknown[] = [];
  return JSON.stringify(value, function (this: unknown, _key, current: unknown) {
    if (typeof current === "bigint") return current.toString();
    if (typeof current !== "object" || current === null) return current;
    // `this` is the object holding `current`: unwind to it, so `ancestors` is the path from the root.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(current)) return undefined;
    ancestors.push(current);
    return current;
  });
}

/** The indexed columns and the JSON of a snapshot, as stored. */
export function snapshotColumns(summary: SnapshotSummary, snapshot: WorkflowRunState, storedResourceId?: string | null) {
  return {
    status: summary.status,
    agentId: summary.agentId,
    threadId: summary.threadId,
    resourceId: storedResourceId ?? summary.resourceId,
    toolCalls: summary.toolCalls ? JSON.stringify(summary.toolCalls) : null,
    toolCallCount: summary.toolCalls?.length ?? 0,
    requestExcerpt: summary.requestExcerpt,
    snapshot: serializeSnapshot(snapshot),
  };
}

export function parseSnapshot(json: string): WorkflowRunState {
  return JSON.parse(json) as WorkflowRunState;
}

export function toWorkflowRun(row: WorkflowSnapshot): WorkflowRun {
  return {
    workflowName: row.workflowName,
    runId: row.runId,
    snapshot: parseSnapshot(row.snapshot),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    resourceId: row.resourceId ?? undefined,
  };
}
