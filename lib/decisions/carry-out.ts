/**
 * Carries a recorded decision out through the real Mastra agent, holding a lease the process renews
 * while the agent works, and records how it ended. Once the agent reports the decided call's tool
 * result the decision notes it: from then on the call is never released again.
 */
import type { Agent } from "@mastra/core/agent";
import { isDurableAgent } from "@mastra/core/agent/durable";
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { failpoint } from "../failpoint.ts";
import { alreadyDecided, decisionLeaseMs, noteToolRan, transition } from "./ledger.ts";
import { durableRunWritten, pendingRowVersion, settleRun, whereIsTheRun } from "./run-position.ts";
import { DecisionError, type Decision, type DecisionOutcome } from "./types.ts";

/** Sends a recorded decision to the agent and records how it ended. */
export async function carryOut(db: Db, decision: ToolCallDecision, agent: Agent): Promise<DecisionOutcome> {
  const lease = decisionLeaseMs();
  const applying = await transition(db, decision, "recorded", "applying", {
    attempts: decision.attempts + 1,
    leaseUntil: new Date(Date.now() + lease),
  });
  if (!applying) {
    throw alreadyDecided(await db.toolCallDecision.findUniqueOrThrow({ where: { id: decision.id } }));
  }
  // A slow agent (a real model) keeps the lease; a dead process stops renewing it.
  const renewal = setInterval(
    () => {
      db.toolCallDecision
        .updateMany({ where: { id: decision.id, state: "applying" }, data: { leaseUntil: new Date(Date.now() + lease) } })
        .catch(() => undefined);
    },
    Math.max(1_000, lease / 3),
  );
  renewal.unref?.();
  // Set once the tool's result is noted on the decision: from then on the call is never released.
  let toolRan = false;
  try {
    let versionBefore: number | null = null;
    if (isDurableAgent(agent)) {
      // Mastra 1.71 continues whatever call a durable run waits on, whichever toolCallId it is
      // given (a plain agent's run refuses a call it does not wait on): check it right before sending.
      versionBefore = await pendingRowVersion(db, decision);
      if (versionBefore === null) {
        throw new DecisionError("tool_call_not_pending", `Run "${decision.runId}" no longer waits on tool call "${decision.toolCallId}".`);
      }
    }
    const stream = await continueRun(agent, decision);
    failpoint("after-send");
    const outcome = await readOutcome(stream, decision.toolCallId, async () => {
      await noteToolRan(db, decision);
      toolRan = true;
    });
    if (versionBefore !== null) await durableRunWritten(db, decision.runId, versionBefore);
    failpoint("after-stream-read");
    await transition(db, decision, "applying", "applied", { answer: outcome.answer }, { outcome: "applied", answer: outcome.answer });
    return {
      ...outcome,
      action: decision.action as Decision["action"],
      runId: decision.runId,
      toolCallId: decision.toolCallId,
      agentId: decision.agentId,
    };
  } catch (error) {
    const failure = agentError(error, decision);
    if (toolRan) {
      // Releasing would let the tool run twice: the decision failed after it was carried out.
      await transition(
        db,
        decision,
        "applying",
        "failed",
        { error: failure.message },
        {
          outcome: "failed",
          code: failure.code,
          message: `The tool ran, then the agent failed: ${failure.message} The run was settled; it cannot be decided again.`,
        },
      );
      await settleRun(db, decision.runId, decision.toolCallId);
      throw failure;
    }
    const decidableAgain = (await whereIsTheRun(db, decision)) === "pending";
    await transition(
      db,
      decision,
      "applying",
      decidableAgain ? "released" : "failed",
      { error: failure.message },
      {
        outcome: "failed",
        code: failure.code,
        message: decidableAgain ? `${failure.message} The tool call is decidable again.` : failure.message,
      },
    );
    throw failure;
  } finally {
    clearInterval(renewal);
  }
}

function continueRun(agent: Agent, decision: ToolCallDecision) {
  const target = { runId: decision.runId, toolCallId: decision.toolCallId };
  switch (decision.action) {
    case "approve":
      return agent.approveToolCall(target);
    case "decline":
      return agent.declineToolCall({ ...target, reason: decision.reason ?? undefined });
    case "resume":
      return agent.resumeStream(JSON.parse(decision.resumeData ?? "null"), target);
    default:
      throw new Error(`Unknown decision action "${decision.action}"`);
  }
}

/**
 * Reads the continued run to its end (Mastra deletes a finished run's snapshots only then), calling
 * `onToolRan` once when the decided call's tool result arrives.
 */
async function readOutcome(stream: { fullStream: AsyncIterable<unknown> }, toolCallId: string, onToolRan: () => Promise<void>) {
  let answer = "";
  let runState: DecisionOutcome["runState"] = "completed";
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

function agentError(error: unknown, decision: Pick<ToolCallDecision, "runId" | "toolCallId">): DecisionError {
  if (error instanceof DecisionError) return error;
  const id = (error as { id?: string }).id;
  if (id === "AGENT_RESUME_NO_SNAPSHOT_FOUND") {
    return new DecisionError("run_not_found", `Run "${decision.runId}" is no longer suspended.`);
  }
  if (id === "AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED") {
    return new DecisionError("tool_call_not_pending", `Tool call "${decision.toolCallId}" is no longer pending.`);
  }
  return new DecisionError("agent_failed", `The agent could not continue the run: ${describe(error)}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
}
