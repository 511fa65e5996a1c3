/**
 * Reading a continued agent run's stream, in process (Mastra's `fullStream`) or from a remote
 * Mastra server (its server-sent events, lib/decisions/remote-runs.ts): one reader, so both learn
 * the same way when the decided call's tool ran and how the run stands.
 */
import type { DecisionOutcome } from "./types.ts";
import { DecisionError } from "./types.ts";

/** What a continued run reported: the agent's answer (empty for a workflow) and where the run stands. */
export type Continued = Pick<DecisionOutcome, "answer" | "runState">;

/**
 * Reads the continued run to its end (Mastra deletes a finished run's snapshots only then), calling
 * `onToolRan` once when the decided call's tool result arrives.
 */
export async function readAgentStream(stream: { fullStream: AsyncIterable<unknown> }, toolCallId: string, onToolRan: () => Promise<void>) {
  let answer = "";
  let runState: Continued["runState"] = "completed";
  let toolRan = false;
  type Chunk = { type: string; payload?: { text?: string; error?: unknown; toolCallId?: string } };
  for await (const chunk of stream.fullStream as AsyncIterable<Chunk>) {
    if (chunk.type === "text-delta") answer += chunk.payload?.text ?? "";
    else if (chunk.type === "tool-result" && chunk.payload?.toolCallId === toolCallId && !toolRan) {
      toolRan = true;
      await onToolRan();
    } else if (chunk.type === "tool-call-approval" || chunk.type === "tool-call-suspended") {
      runState = "waiting-again";
    } else if (chunk.type === "error") throw new DecisionError("agent_failed", `The agent failed: ${describe(chunk.payload?.error)}`);
  }
  return { answer, runState };
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
}
