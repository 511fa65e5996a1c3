/**
 * Driving an agent the way a person's request would, until it waits for a reviewer, and reading a
 * continued run to its end. The one copy of both, used by the seed, the tests, the e2e fixtures
 * and the benchmarks.
 */
import { isDurableAgent } from "@mastra/core/agent/durable";
import { findSuspendedRun } from "../../runs/run-detail.ts";

/** The call a run waits on once its agent stopped for a person. */
export interface WaitingCall {
  runId: string;
  toolCallId: string;
  kind: "approval" | "suspend";
}

type Memory = { memory?: { thread: string; resource: string } };
type Chunk = { type: string; payload?: { toolCallId?: string } };

export type StreamingAgent = {
  stream(text: string, options: Memory): Promise<{ runId: string; fullStream: AsyncIterable<unknown> }>;
  generate?(text: string, options: Memory & { onChunk?: (chunk: Chunk) => void }): Promise<{ runId?: string }>;
};

/**
 * Streams `text` to `agent` on `memory`'s thread and resource (none: an agent used without memory;
 * a resource without a thread: Mastra records the resource, the run has no thread) and returns the
 * call it waits on.
 * Mastra holds a second stream on a thread that already has a suspended run in the same Mastra
 * instance until that run completes: give a second run on one thread a Mastra instance of its own.
 */
export async function runUntilWaiting(
  agent: StreamingAgent,
  text: string,
  memory: { thread?: string; resource: string } | undefined,
): Promise<WaitingCall> {
  // Mastra's type asks for a thread, but a run with only a resource is recorded as such (1.71).
  const options = memory ? { memory: memory as { thread: string; resource: string } } : {};
  let waiting: Omit<WaitingCall, "runId"> | undefined;
  const note = (chunk: Chunk) => {
    if (chunk.type === "tool-call-approval" || chunk.type === "tool-call-suspended") {
      waiting = { toolCallId: chunk.payload?.toolCallId ?? "", kind: chunk.type === "tool-call-approval" ? "approval" : "suspend" };
    }
  };
  let runId: string | undefined;
  if (isDurableAgent(agent) && agent.generate) {
    // A durable agent's stream stays open across a suspension (Mastra 1.71), and with
    // `closeOnSuspend` it ends before the suspension is stored; generate() returns once it is.
    runId = (await agent.generate(text, { ...options, onChunk: note })).runId;
  } else {
    const stream = await agent.stream(text, options);
    runId = stream.runId;
    for await (const chunk of stream.fullStream as AsyncIterable<Chunk>) note(chunk);
  }
  if (!runId || !waiting?.toolCallId) throw new Error(`The agent finished without waiting for a reviewer on:\n${text}`);
  return { runId, ...waiting };
}

/** Reads a continued run to its end (which is when Mastra deletes a finished run's snapshots); its text. */
export async function readAnswer(stream: { fullStream: AsyncIterable<unknown> }): Promise<string> {
  let text = "";
  for await (const chunk of stream.fullStream as AsyncIterable<{ type: string; payload?: { text?: string } }>) {
    if (chunk.type === "text-delta") text += chunk.payload?.text ?? "";
  }
  return text;
}

type StartableWorkflow = {
  createRun(options?: { resourceId?: string }): Promise<{
    runId: string;
    start(args: { inputData: any }): Promise<{ status: string; suspended?: string[][] }>;
  }>;
};

/**
 * Starts a workflow run on `input` until a step suspends for a person; the call it waits on, as the
 * store lists it (its id names the step and when it suspended).
 */
export async function startUntilSuspended(
  workflow: StartableWorkflow,
  input: unknown,
  { resource, databaseUrl }: { resource?: string; databaseUrl: string },
): Promise<WaitingCall> {
  const run = await workflow.createRun(resource ? { resourceId: resource } : {});
  const result = await run.start({ inputData: input });
  const step = result.suspended?.[0];
  if (result.status !== "suspended" || !step) throw new Error(`The workflow ended without waiting for a person (${result.status})`);
  const listed = await findSuspendedRun(run.runId, databaseUrl);
  const call = listed?.toolCalls.find((candidate) => candidate.step?.join(".") === step.join("."));
  if (!call?.toolCallId) throw new Error(`The store does not list the suspended step ${step.join(".")}`);
  return { runId: run.runId, toolCallId: call.toolCallId, kind: "suspend" };
}
