/**
 * The one place that knows Mastra's workflow snapshot layout (@mastra/core 1.71). Everything else
 * works from what `readSnapshot` returns. The layout is Mastra's internal format and changes between
 * versions; this module mirrors what `Agent.listSuspendedRuns()` and the resume methods read:
 *  - the owning agent: `__agentId` in the suspended step's payload (durable loop: `context.input.agentId`);
 *  - thread and resource: Mastra's own `getSnapshotMemoryInfo`;
 *  - pending calls: `requireToolApproval` (approval) or `toolCallSuspended` (a tool's `suspend()`),
 *    also inside foreach iterations, with `resumeLabels` naming a call when the payload does not;
 *  - delegation (supervisor agents, Mastra's `agents` option): a supervisor's call to its `agent-<name>`
 *    tool that waits because the sub-agent's tool waits carries `suspendedToolRunId`, the sub-agent's
 *    own (inner) run. That inner run is a suspended agent-loop row of its own, owned by the sub-agent,
 *    with nothing in it that says it is delegated: only the outer run names it.
 *  - queued calls: calls the model made in the same step as a pending one that Mastra has not
 *    reached yet (it runs a step's calls one at a time when a tool needs approval or can suspend).
 *  - workflow runs (a plain workflow, not an agent): every suspended step in `suspendedPaths` waits
 *    for data, its payload in `context[step].suspendPayload`; a step that is a nested workflow
 *    carries `__workflow_meta.path`, the step inside it that waits. Mastra also stores the nested
 *    workflow's own row under the same run id: only the outer run is resumed.
 *  - durable agents (`createDurableAgent`): the outer row is `durable-agentic-loop`, beside it an
 *    internal `durable-agentic-execution` row (the nested loop body, like a plain agent's
 *    `executionWorkflow`). An approval's payload is `{ type: "approval", toolCallId, toolName, args }`
 *    rather than `requireToolApproval`, and the step's messages (queued calls, resume schemas) live
 *    only in the internal row.
 */
import { getSnapshotMemoryInfo } from "@mastra/core/storage";
import type { WorkflowRunState } from "@mastra/core/workflows";
import { AGENT_LOOP_WORKFLOWS, isAgentLoopWorkflow, MASTRA_INTERNAL_WORKFLOWS, workflowOwnerKey } from "./run-kinds.ts";
import { messageListsOf, requestExcerptOf } from "./conversation.ts";
import { suspendedWorkflowSteps } from "./workflow-steps.ts";

export {
  AGENT_LOOP_WORKFLOWS,
  executionWorkflowOf,
  MASTRA_INTERNAL_WORKFLOWS,
  isAgentLoopWorkflow,
  runShapeOf,
  workflowIdOfOwner,
  workflowOwnerKey,
  type RunShape,
} from "./run-kinds.ts";

/** The contract's AgentRunToolCall. */
export interface AgentRunToolCall {
  toolCallId?: string;
  toolName?: string;
  args?: unknown;
  requiresApproval: boolean;
  suspendPayload?: unknown;
  /**
   * Not in the contract: a delegated call's path, supervisor → sub-agent(s) → tool, as agent ids and
   * the tool's name. Only on calls a supervisor waits on because a sub-agent's tool waits.
   */
  path?: string[];
  /**
   * Not in the contract: on a workflow run, the suspended step's path (outer step first, the step
   * inside a nested workflow after it), what `run.resume({ step })` takes. The call's id is the
   * path joined with ".".
   */
  step?: string[];
}

/**
 * A supervisor's pending call that waits on a sub-agent's inner run, or a workflow's suspended step
 * that is a nested workflow.
 */
export interface Delegation {
  toolCallId: string;
  /** The sub-agent's (inner) run, whose own row must not count as a second pending run. */
  innerRunId: string;
  /** The inner row's workflow: a nested workflow's id; unset for a sub-agent's (agent-loop) run. */
  innerWorkflowName?: string;
}

export interface SnapshotSummary {
  status: string;
  /** Set only for agent-loop rows: the agent that owns the run. */
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
  /** Set only for suspended agent-loop rows. */
  toolCalls: AgentRunToolCall[] | null;
  /** The pending calls that wait on a sub-agent's inner run (suspended agent-loop rows only). */
  delegations: Delegation[];
  /**
   * Suspended agent-loop rows only: a one-line excerpt of the run's last user message
   * (conversation.ts, requestExcerptOf), `""` when it has none. Null otherwise.
   */
  requestExcerpt: string | null;
}

type Json = Record<string, unknown>;

export function readSnapshot(workflowName: string, snapshot: WorkflowRunState): SnapshotSummary {
  const status = typeof snapshot?.status === "string" ? snapshot.status : "unknown";
  const memoryInfo = getSnapshotMemoryInfo(snapshot);
  const isAgentRun = isAgentLoopWorkflow(workflowName);
  if (!isAgentRun) return readWorkflowRun(workflowName, status, snapshot, memoryInfo);
  const agentId = isAgentRun ? readAgentId(snapshot) : undefined;
  const pending = isAgentRun && agentId && status === "suspended" ? readPendingToolCalls(snapshot) : null;
  return {
    status,
    agentId: agentId ?? null,
    threadId: stringOrNull(memoryInfo?.threadId),
    resourceId: stringOrNull(memoryInfo?.resourceId),
    toolCalls: pending?.map(({ call }) => call) ?? null,
    delegations: (pending ?? []).flatMap(({ call, innerRunId }) =>
      innerRunId && call.toolCallId ? [{ toolCallId: call.toolCallId, innerRunId }] : [],
    ),
    requestExcerpt: pending ? requestExcerptOf(workflowName, snapshot) : null,
  };
}

/**
 * A delegated call's path: the supervisor, then the path of the inner run's call it waits on (a
 * sub-agent that is itself a supervisor has one), else that run's agent and the call's tool. The
 * inner call is the inner run's last pending call of the same kind (the one Mastra's `agent-<name>`
 * tool passed up).
 */
export function delegatedPath(
  supervisorId: string,
  call: AgentRunToolCall,
  inner: { agentId: string | null; toolCalls: AgentRunToolCall[] | null },
): string[] | undefined {
  const innerCall = (inner.toolCalls ?? []).filter((candidate) => candidate.requiresApproval === call.requiresApproval).at(-1);
  if (innerCall?.path) return [supervisorId, ...innerCall.path];
  if (!inner.agentId || !innerCall?.toolName) return undefined;
  return [supervisorId, inner.agentId, innerCall.toolName];
}

/** A plain workflow's run: listed while suspended, each suspended step one call waiting for data. */
function readWorkflowRun(
  workflowName: string,
  status: string,
  snapshot: WorkflowRunState,
  memoryInfo: ReturnType<typeof getSnapshotMemoryInfo>,
): SnapshotSummary {
  const candidate = status === "suspended" && !MASTRA_INTERNAL_WORKFLOWS.includes(workflowName);
  const steps = candidate ? suspendedWorkflowSteps(snapshot) : [];
  // Listed only with a step that waits: a run suspended in no step has nothing to resume.
  const listed = steps.length > 0;
  return {
    status,
    agentId: listed ? workflowOwnerKey(workflowName) : null,
    threadId: stringOrNull(memoryInfo?.threadId),
    resourceId: stringOrNull(memoryInfo?.resourceId),
    toolCalls: listed ? steps.map(({ call }) => call) : null,
    delegations: steps.flatMap(({ call, nested }) => (nested ? [{ toolCallId: call.toolCallId!, ...nested }] : [])),
    requestExcerpt: null,
  };
}

function suspendedSteps(snapshot: WorkflowRunState): Array<[stepKey: string, step: Json]> {
  const context = (snapshot?.context ?? {}) as Record<string, unknown>;
  return Object.entries(context).flatMap(([key, step]) =>
    isObject(step) && step.status === "suspended" ? [[key, step] as [string, Json]] : [],
  );
}

function readAgentId(snapshot: WorkflowRunState): string | undefined {
  for (const [, step] of suspendedSteps(snapshot)) {
    const payload = step.suspendPayload;
    if (isObject(payload) && payload.__agentId) return String(payload.__agentId);
  }
  const durableInput = (snapshot?.context as Json | undefined)?.input;
  if (isObject(durableInput) && typeof durableInput.agentId === "string") return durableInput.agentId;
  return undefined;
}

function readPendingToolCalls(snapshot: WorkflowRunState): Array<{ call: AgentRunToolCall; innerRunId?: string }> {
  const calls: Array<{ call: AgentRunToolCall; innerRunId?: string }> = [];
  for (const [stepKey, step] of suspendedSteps(snapshot)) {
    const payload = step.suspendPayload;
    if (!isObject(payload)) continue;
    const iterations = suspendedForeachIterations(payload);
    const payloads = iterations.length > 0 ? iterations : [payload];
    for (const each of payloads) {
      const call = toolCallOf(each, () => resumeLabelForStep(snapshot, stepKey));
      const innerRunId = typeof each.suspendedToolRunId === "string" ? each.suspendedToolRunId : undefined;
      if (call) calls.push({ call, innerRunId });
    }
  }
  return calls;
}

function toolCallOf(payload: Json, labelFallback: () => string | undefined): AgentRunToolCall | undefined {
  // A durable agent's approval carries the call itself, marked by its type. Mastra 1.71's own
  // listSuspendedRuns() does not know this layout and reports it as a suspend() without payload.
  const approval = payload.type === "approval" && typeof payload.toolCallId === "string" ? payload : payload.requireToolApproval;
  if (isObject(approval)) {
    return {
      toolCallId: approval.toolCallId as string | undefined,
      toolName: approval.toolName as string | undefined,
      args: approval.args,
      requiresApproval: true,
    };
  }
  if (payload.toolCallSuspended || payload.toolName || payload.toolCallId) {
    return {
      toolCallId: (payload.toolCallId as string | undefined) ?? labelFallback(),
      toolName: payload.toolName as string | undefined,
      requiresApproval: false,
      suspendPayload: payload.toolCallSuspended,
    };
  }
  return undefined;
}

function suspendedForeachIterations(payload: Json): Json[] {
  const meta = payload.__workflow_meta;
  const output = isObject(meta) ? meta.foreachOutput : undefined;
  const entries = Array.isArray(output) ? output : isObject(output) ? Object.values(output) : [];
  return entries.flatMap((entry) =>
    isObject(entry) && entry.status === "suspended" && isObject(entry.suspendPayload) ? [entry.suspendPayload] : [],
  );
}

function resumeLabelForStep(snapshot: WorkflowRunState, stepKey: string): string | undefined {
  const labels = Object.entries((snapshot?.resumeLabels ?? {}) as Record<string, { stepId?: string }>).filter(
    ([, target]) => target?.stepId === stepKey,
  );
  return labels.length === 1 ? labels[0]![0] : undefined;
}

/**
 * A call the model made in the same step as a pending call, which Mastra has not reached yet.
 * Mastra 1.71 runs a step's tool calls one at a time, in the model's order, whenever one of the
 * agent's tools needs approval or can suspend: the run waits on the first call, and the next one
 * is reached (and waits in its turn, or runs) only once the one before it is decided. Listing
 * shows only the pending call (as `Agent.listSuspendedRuns()` does); these are what comes after.
 */
export interface QueuedToolCall {
  toolCallId: string;
  toolName?: string;
  args?: unknown;
  /** The pending call this one waits behind. */
  behind: string;
}

/**
 * The calls of the pending calls' step that Mastra has not reached yet, in the model's order.
 * `execution`: the run's internal row (executionWorkflowOf), where a durable run keeps its messages.
 */
export function readQueuedToolCalls(snapshot: WorkflowRunState, execution?: WorkflowRunState): QueuedToolCall[] {
  const pending = readPendingToolCalls(snapshot).flatMap(({ call }) => (call.toolCallId ? [call.toolCallId] : []));
  if (pending.length === 0) return [];
  const queued: QueuedToolCall[] = [];
  for (const message of streamedMessages(snapshot, execution)) {
    const parts: unknown[] = Array.isArray(message?.content?.parts) ? message.content.parts : [];
    const invocations = parts.flatMap((part) =>
      isObject(part) && part.type === "tool-invocation" && isObject(part.toolInvocation) ? [part.toolInvocation] : [],
    );
    // Only the assistant message that made the pending call: a thread's older messages are other runs'.
    const last = invocations.findLastIndex((invocation) => pending.includes(invocation.toolCallId as string));
    if (last < 0) continue;
    // Calls before the pending one were carried out already (their parts keep state "call" until the
    // step ends); the ones after it are not reached yet.
    for (const invocation of invocations.slice(last + 1)) {
      const id = invocation.toolCallId;
      if (typeof id !== "string" || invocation.state !== "call") continue;
      const behind = invocations[last]!.toolCallId as string;
      queued.push({ toolCallId: id, toolName: invocation.toolName as string | undefined, args: invocation.args, behind });
    }
    break;
  }
  return queued;
}

/** The run's messages as Mastra streamed them (conversation.ts knows where each run shape keeps them). */
function streamedMessages(snapshot: WorkflowRunState, execution?: WorkflowRunState): any[] {
  return messageListsOf(snapshot, execution).flatMap((list) => (Array.isArray(list.messages) ? list.messages : []));
}

/**
 * The JSON Schema (as Mastra serialised it) a suspended tool declared for its resume data, read from
 * the assistant message that carries the pending call. Undefined where the tool declared none.
 */
export function readResumeSchema(snapshot: WorkflowRunState, toolCallId: string, execution?: WorkflowRunState): unknown {
  for (const message of streamedMessages(snapshot, execution)) {
    const metadata = message?.content?.metadata;
    const pending = metadata?.suspendedTools?.[toolCallId] ?? metadata?.pendingToolApprovals?.[toolCallId];
    if (pending?.resumeSchema === undefined) continue;
    if (typeof pending.resumeSchema !== "string") return pending.resumeSchema;
    try {
      return JSON.parse(pending.resumeSchema);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}
