/**
 * A plain workflow's suspended steps, as the calls its run waits on (part of snapshot-reader.ts's
 * reading of Mastra's layout): every step in `suspendedPaths` waits for data, its payload in
 * `context[step].suspendPayload`; a step that is a nested workflow carries `__workflow_meta` with the
 * nested run and the path of the step inside it that waits. A call's id is the step path joined
 * with ".", then "@" and when the step suspended (epoch ms).
 */
import type { WorkflowRunState } from "@mastra/core/workflows";
import type { AgentRunToolCall } from "./snapshot-reader.ts";

type Json = Record<string, unknown>;

export function suspendedWorkflowSteps(snapshot: WorkflowRunState) {
  const context = (snapshot?.context ?? {}) as Record<string, unknown>;
  return Object.keys((snapshot?.suspendedPaths ?? {}) as Record<string, unknown>).flatMap((stepId) => {
    const step = context[stepId];
    if (!isObject(step) || step.status !== "suspended") return [];
    const { __workflow_meta: meta, ...payload } = isObject(step.suspendPayload) ? step.suspendPayload : {};
    const inner = isObject(meta) && Array.isArray(meta.path) ? meta.path.filter((id): id is string => typeof id === "string") : [];
    const path = [stepId, ...inner];
    // A step can wait again after it was resumed (it suspends anew, or a loop comes back to it): each
    // time is its own call, decided once, so its id carries when the step suspended.
    const since = typeof step.suspendedAt === "number" ? `@${step.suspendedAt}` : "";
    const call: AgentRunToolCall = {
      toolCallId: `${path.join(".")}${since}`,
      toolName: path.at(-1),
      requiresApproval: false,
      suspendPayload: isObject(step.suspendPayload) ? payload : step.suspendPayload,
      step: path,
    };
    const nested =
      inner.length > 0 && isObject(meta) && typeof meta.runId === "string"
        ? { innerRunId: meta.runId, innerWorkflowName: stepId }
        : undefined;
    return [{ call, nested }];
  });
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
