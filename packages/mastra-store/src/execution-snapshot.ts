/**
 * A durable agent's run keeps its step messages (the calls of the step, the resume schemas its
 * tools declared) only in the internal row Mastra writes beside the outer one: read it where the
 * snapshot reader needs it.
 */
import type { WorkflowRunState } from "@mastra/core/workflows";
import type { StoreDb } from "./database.ts";
import { executionWorkflowOf } from "./snapshot-reader.ts";

/** The run's internal execution snapshot when its shape keeps messages there, else undefined. */
export async function loadExecutionSnapshot(
  db: Pick<StoreDb, "workflowSnapshot">,
  workflowName: string,
  runId: string,
): Promise<WorkflowRunState | undefined> {
  const execution = executionWorkflowOf(workflowName);
  if (!execution) return undefined;
  const row = await db.workflowSnapshot.findUnique({
    where: { workflowName_runId: { workflowName: execution, runId } },
    select: { snapshot: true },
  });
  return row ? (JSON.parse(row.snapshot) as WorkflowRunState) : undefined;
}
