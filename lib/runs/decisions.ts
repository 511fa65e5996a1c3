/**
 * The decision logic: the only code that continues a suspended run. Every action (approve, decline,
 * resume) comes through `decide`, which checks the run against the database — it exists, it is
 * suspended, it waits on exactly this tool call, of this kind — resolves the owning agent from the
 * stored snapshot (never from the caller), and continues the run through that real Mastra agent.
 */
import type { Agent } from "@mastra/core/agent";
import { databaseUrlFromEnv } from "../db/client.ts";
import { findAgentById, getMastra } from "../mastra/index.ts";
import { getSuspendedRun, type PendingToolCall, type RunDetail } from "./run-detail.ts";

export type Decision =
  | { action: "approve"; runId: string; toolCallId: string }
  | { action: "decline"; runId: string; toolCallId: string; reason?: string }
  | { action: "resume"; runId: string; toolCallId: string; resumeData: unknown };

export type DecisionErrorCode =
  | "run_not_found"
  | "tool_call_not_pending"
  | "wrong_kind"
  | "unknown_agent"
  | "invalid_resume_data"
  | "agent_failed";

export class DecisionError extends Error {
  constructor(
    readonly code: DecisionErrorCode,
    message: string,
    readonly issues: Array<{ path: string; message: string }> = [],
  ) {
    super(message);
    this.name = "DecisionError";
  }
}

export interface DecisionOutcome {
  action: Decision["action"];
  runId: string;
  toolCallId: string;
  agentId: string;
  /** What the agent said after the decision. */
  answer: string;
  /** The run stopped again for another call (it stays in the list), or it finished. */
  runState: "completed" | "waiting-again";
}

export async function decide(decision: Decision, databaseUrl: string = databaseUrlFromEnv()): Promise<DecisionOutcome> {
  const run = await getSuspendedRun(decision.runId, databaseUrl);
  if (!run) {
    throw new DecisionError("run_not_found", `No suspended run "${decision.runId}": it does not exist or was already decided.`);
  }
  const call = pendingCall(run, decision);
  const mastra = await getMastra(databaseUrl);
  const agent = findAgentById(mastra, run.agentId);
  if (!agent) {
    throw new DecisionError("unknown_agent", `Run "${run.runId}" belongs to agent "${run.agentId}", which this console does not serve.`);
  }
  if (decision.action === "resume") await checkResumeData(agent, call, decision.resumeData);

  let stream;
  try {
    stream = await continueRun(agent, decision);
  } catch (error) {
    throw agentError(error, decision);
  }
  return { ...(await readOutcome(stream)), action: decision.action, runId: run.runId, toolCallId: decision.toolCallId, agentId: run.agentId };
}

function pendingCall(run: RunDetail, decision: Decision): PendingToolCall {
  const call = run.toolCalls.find((candidate) => candidate.toolCallId === decision.toolCallId);
  if (!call) {
    throw new DecisionError(
      "tool_call_not_pending",
      `Run "${run.runId}" is not waiting on tool call "${decision.toolCallId}".`,
    );
  }
  const wantsApproval = decision.action !== "resume";
  if (call.requiresApproval !== wantsApproval) {
    throw new DecisionError(
      "wrong_kind",
      call.requiresApproval
        ? `Tool call "${decision.toolCallId}" waits for approval: approve or decline it.`
        : `Tool call "${decision.toolCallId}" waits for data: resume it with data.`,
    );
  }
  return call;
}

/** Resume data must satisfy the schema the tool itself declares (checked again by Mastra). */
async function checkResumeData(agent: Agent, call: PendingToolCall, resumeData: unknown): Promise<void> {
  const tools = (await agent.listTools()) as Record<string, { resumeSchema?: StandardSchema }>;
  const schema = call.toolName ? tools[call.toolName]?.resumeSchema : undefined;
  if (!schema?.["~standard"]) return;
  const result = await schema["~standard"].validate(resumeData);
  if (result.issues?.length) {
    const issues = result.issues.map((issue) => ({
      path: (issue.path ?? []).map((part) => (typeof part === "object" ? String(part.key) : String(part))).join("."),
      message: issue.message,
    }));
    throw new DecisionError(
      "invalid_resume_data",
      `The resume data does not match what ${call.toolName} expects: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
      issues,
    );
  }
}

interface StandardSchema {
  "~standard": {
    validate(value: unknown): { issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> } | Promise<{ issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> }>;
  };
}

function continueRun(agent: Agent, decision: Decision) {
  const target = { runId: decision.runId, toolCallId: decision.toolCallId };
  switch (decision.action) {
    case "approve":
      return agent.approveToolCall(target);
    case "decline":
      return agent.declineToolCall({ ...target, reason: decision.reason });
    case "resume":
      return agent.resumeStream(decision.resumeData, target);
  }
}

/** Reads the continued run to its end (Mastra deletes a finished run's snapshots only then). */
async function readOutcome(stream: { fullStream: AsyncIterable<unknown> }) {
  let answer = "";
  let runState: DecisionOutcome["runState"] = "completed";
  for await (const chunk of stream.fullStream as AsyncIterable<{ type: string; payload?: { text?: string; error?: unknown } }>) {
    if (chunk.type === "text-delta") answer += chunk.payload?.text ?? "";
    else if (chunk.type === "tool-call-approval" || chunk.type === "tool-call-suspended") runState = "waiting-again";
    else if (chunk.type === "error") {
      throw new DecisionError("agent_failed", `The agent failed while continuing the run: ${describe(chunk.payload?.error)}`);
    }
  }
  return { answer, runState };
}

function agentError(error: unknown, decision: Decision): DecisionError {
  const id = (error as { id?: string }).id;
  if (id === "AGENT_RESUME_NO_SNAPSHOT_FOUND") {
    return new DecisionError("run_not_found", `Run "${decision.runId}" is no longer suspended: it was decided meanwhile.`);
  }
  if (id === "AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED") {
    return new DecisionError("tool_call_not_pending", `Tool call "${decision.toolCallId}" is no longer pending.`);
  }
  return new DecisionError("agent_failed", `The agent could not continue the run: ${describe(error)}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
}
