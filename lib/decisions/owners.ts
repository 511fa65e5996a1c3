/**
 * Who continues a waiting run: an agent (approve, decline, resume a tool call through the agent,
 * which continues a sub-agent for a supervisor), a plain workflow (resume a suspended step through
 * the workflow's run), or in remote mode (MASTRA_SERVER_URL) an agent of the team's own Mastra
 * server, over HTTP (remote-runs.ts). The only module that knows how each is continued and whose
 * schema the resume data must satisfy; decide.ts, carry-out.ts and recovery work from the owner it
 * resolves. In remote mode nothing here builds the local Mastra instance.
 */
import type { Agent } from "@mastra/core/agent";
import { isDurableAgent } from "@mastra/core/agent/durable";
import type { AnyWorkflow } from "@mastra/core/workflows";
import { z } from "zod";
import { failpoint } from "../failpoint.ts";
import { findAgentById, getAgentMastra, getMastra } from "../mastra/index.ts";
import { remoteServer } from "../mastra/remote.ts";
import { workflowIdOfOwner, type AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { describe, readAgentStream, type Continued } from "./agent-stream.ts";
import { continueRemoteRun, remoteResumeSchema, resolveRemoteOwner, type RemoteOwner } from "./remote-runs.ts";
import { durableRunWritten, pendingRowVersion } from "./run-position.ts";
import { DecisionError, declinesCall } from "./types.ts";

export { describe, type Continued } from "./agent-stream.ts";

type SnapshotReader = Pick<Db, "workflowSnapshot">;

export type RunOwner = { kind: "agent"; id: string; agent: Agent } | { kind: "workflow"; id: string; workflow: AnyWorkflow } | RemoteOwner;

/** The owner of a run from its stored owner key (an agent's id, or a workflow's key). */
export async function resolveOwner(ownerKey: string, databaseUrl: string): Promise<RunOwner> {
  const server = remoteServer();
  if (server) return resolveRemoteOwner(ownerKey, server, databaseUrl);
  const mastra = await getMastra(databaseUrl);
  const workflowId = workflowIdOfOwner(ownerKey);
  if (workflowId !== undefined) {
    const workflow = findWorkflowById(mastra, workflowId);
    if (!workflow) {
      throw new DecisionError("unknown_agent", `This run belongs to workflow "${workflowId}", which this console does not serve.`);
    }
    return { kind: "workflow", id: workflowId, workflow };
  }
  // Continued on the agent's own instance: another agent's run waiting on the same thread must not hold it up.
  const agentMastra = await getAgentMastra(ownerKey, databaseUrl);
  const agent = agentMastra && findAgentById(agentMastra, ownerKey);
  if (!agent) throw new DecisionError("unknown_agent", `This run belongs to agent "${ownerKey}", which this console does not serve.`);
  return { kind: "agent", id: ownerKey, agent };
}

function findWorkflowById(mastra: Awaited<ReturnType<typeof getMastra>>, workflowId: string): AnyWorkflow | undefined {
  return Object.values(mastra.listWorkflows() as Record<string, AnyWorkflow>).find((workflow) => workflow.id === workflowId);
}

/** A Standard Schema (zod's schemas are): what Mastra's tools and steps declare their resume data with. */
export interface StandardSchema {
  "~standard": {
    validate(value: unknown): { issues?: ReadonlyArray<StandardIssue> } | Promise<{ issues?: ReadonlyArray<StandardIssue> }>;
  };
}
type StandardIssue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };

/** The schema the waiting tool (or workflow step) of run `runId` declares for its resume data, if any. */
export async function resumeSchemaOf(owner: RunOwner, call: AgentRunToolCall, runId: string): Promise<StandardSchema | undefined> {
  if (owner.kind === "remote") return remoteResumeSchema(owner, runId, call);
  if (owner.kind === "workflow") {
    const schema = stepOf(owner.workflow, call.step ?? [])?.resumeSchema;
    return isStandardSchema(schema) ? schema : undefined;
  }
  const { agent: toolAgent, toolName } = await toolOwner(owner.agent, call);
  const tools = toolAgent ? ((await toolAgent.listTools()) as Record<string, { resumeSchema?: unknown }>) : {};
  const schema = toolName ? tools[toolName]?.resumeSchema : undefined;
  return isStandardSchema(schema) ? schema : undefined;
}

/**
 * A workflow step's resume schema as JSON Schema, for the resume editor: Mastra records a tool's in
 * the run's snapshot, but not a step's, so it is read from the workflow the console serves.
 */
export async function workflowStepJsonSchema(ownerKey: string, step: string[], databaseUrl: string): Promise<unknown> {
  try {
    const owner = await resolveOwner(ownerKey, databaseUrl);
    const schema = owner.kind === "workflow" ? stepOf(owner.workflow, step)?.resumeSchema : undefined;
    return schema instanceof z.ZodType ? z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) : undefined;
  } catch {
    return undefined; // an unknown workflow: deciding is refused with the reason
  }
}

/** The step at `path` (a nested workflow's step after the outer step's id). */
export function stepOf(workflow: AnyWorkflow, path: string[]): { resumeSchema?: unknown } | undefined {
  let steps: Record<string, unknown> = workflow.steps;
  let step: unknown;
  for (const id of path) {
    step = steps?.[id];
    steps = (step as { steps?: Record<string, unknown> } | undefined)?.steps ?? {};
  }
  return step as { resumeSchema?: unknown } | undefined;
}

function isStandardSchema(schema: unknown): schema is StandardSchema {
  return typeof (schema as StandardSchema | undefined)?.["~standard"]?.validate === "function";
}

/**
 * The agent whose tool a call waits on: the run's own agent, or for a delegated call the sub-agent
 * at the end of its path (supervisor → sub-agent(s) → tool), found among each supervisor's `agents`.
 * Mastra 1.71 does not check a delegated suspend()'s resume data against the sub-agent's tool schema
 * (the supervisor's `agent-<name>` tool has none): the console does.
 */
export async function toolOwner(agent: Agent, call: AgentRunToolCall): Promise<{ agent?: Agent; toolName?: string }> {
  if (!call.path) return { agent, toolName: call.toolName };
  let owner: Agent | undefined = agent;
  for (const subAgentId of call.path.slice(1, -1)) {
    const subAgents: Record<string, unknown> = owner ? await owner.listAgents() : {};
    owner = Object.values(subAgents).find((candidate) => (candidate as Agent).id === subAgentId) as Agent | undefined;
  }
  return { agent: owner, toolName: call.path.at(-1) };
}

/**
 * Sends a recorded decision to the run's owner and waits for the run to stop again or end, calling
 * `onToolRan` once when the decided call's tool (or step) has run.
 */
export async function continueRun(
  db: SnapshotReader,
  owner: RunOwner,
  decision: ToolCallDecision,
  onToolRan: () => Promise<void>,
): Promise<Continued> {
  if (owner.kind === "workflow") return resumeWorkflowStep(db, owner, decision, onToolRan);
  if (owner.kind === "remote") return continueRemoteRun(db, owner, decision, onToolRan);
  let versionBefore: number | null = null;
  if (isDurableAgent(owner.agent)) {
    // Mastra 1.71 continues whatever call a durable run waits on, whichever toolCallId it is
    // given (a plain agent's run refuses a call it does not wait on): check it right before sending.
    versionBefore = await pendingRowVersion(db, decision);
    if (versionBefore === null) {
      throw new DecisionError("tool_call_not_pending", `Run "${decision.runId}" no longer waits on tool call "${decision.toolCallId}".`);
    }
  }
  const target = { runId: decision.runId, toolCallId: decision.toolCallId };
  const stream =
    decision.action === "approve"
      ? await owner.agent.approveToolCall(target)
      : declinesCall(decision.action)
        ? await owner.agent.declineToolCall({ ...target, reason: decision.reason ?? undefined })
        : await owner.agent.resumeStream(JSON.parse(decision.resumeData ?? "null"), target);
  failpoint("after-send");
  const continued = await readAgentStream(stream, decision.toolCallId, onToolRan);
  if (versionBefore !== null) await durableRunWritten(db, decision.runId, versionBefore);
  return continued;
}

/**
 * Resumes the workflow's run at the suspended step (its id is the step path joined with ".").
 * Mastra runs the rest of the workflow before it returns, writing the run's snapshot as it goes.
 */
async function resumeWorkflowStep(
  db: SnapshotReader,
  owner: Extract<RunOwner, { kind: "workflow" }>,
  decision: ToolCallDecision,
  onToolRan: () => Promise<void>,
): Promise<Continued> {
  if (decision.action !== "resume") throw new DecisionError("wrong_kind", "A workflow step waits for data: resume it with data.");
  // The step to resume, as the stored run names it: a call id is not split back into a path.
  const row = await db.workflowSnapshot.findUnique({
    where: { workflowName_runId: { workflowName: owner.id, runId: decision.runId } },
    select: { status: true, toolCalls: true },
  });
  const calls = row?.status === "suspended" && row.toolCalls ? (JSON.parse(row.toolCalls) as AgentRunToolCall[]) : [];
  const step = calls.find((call) => call.toolCallId === decision.toolCallId)?.step;
  if (!step) throw new DecisionError("tool_call_not_pending", `Run "${decision.runId}" no longer waits on step "${decision.toolCallId}".`);
  const run = await owner.workflow.createRun({ runId: decision.runId });
  const result = await run.resume({ step, resumeData: JSON.parse(decision.resumeData ?? "null") });
  if (result.status === "failed") {
    throw new DecisionError("agent_failed", `The workflow failed: ${describe((result as { error?: unknown }).error)}`);
  }
  await onToolRan();
  return { answer: "", runState: result.status === "suspended" ? "waiting-again" : "completed" };
}
