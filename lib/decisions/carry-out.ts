/**
 * Carries a recorded decision out through the run's owner (the real Mastra agent, or workflow),
 * holding a lease the process renews while it works, and records how it ended. Once the owner
 * reports the decided call's tool (or step) ran, the decision notes it: from then on the call is
 * never released again.
 */
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { failpoint } from "../failpoint.ts";
import { alreadyDecided, decisionLeaseMs, noteToolRan, transition } from "./ledger.ts";
import { decidedOutside } from "./outside.ts";
import { continueRun, describe, type RunOwner } from "./owners.ts";
import { settleRun, whereIsTheRun } from "./run-position.ts";
import { AnswerLostError, DecisionError, type Decision, type DecisionOutcome } from "./types.ts";

/** Sends a recorded decision to the run's owner and records how it ended. */
export async function carryOut(db: Db, decision: ToolCallDecision, owner: RunOwner): Promise<DecisionOutcome> {
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
  // Set as soon as the agent reports the tool's result: from then on the call is never released.
  let toolRan = false;
  // The note goes out beside the rest of the run (which Mastra goes on with whatever we do) instead
  // of holding up the reading of its stream; it is durable before the decision moves on, whichever
  // way it ends. A crash before it lands is one before the result was seen: recovery's cautious case.
  let toolRanNoted: Promise<void> | undefined;
  try {
    const outcome = await continueRun(db, owner, decision, async () => {
      toolRan = true;
      toolRanNoted = noteToolRan(db, decision);
      toolRanNoted.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
    });
    await toolRanNoted;
    failpoint("after-stream-read");
    // An expiry is its own outcome in the history, never a reviewer's decline.
    const applied = decision.action === "expire" ? "expired" : "applied";
    await transition(db, decision, "applying", "applied", { answer: outcome.answer }, { outcome: applied, answer: outcome.answer });
    return {
      ...outcome,
      action: decision.action as Decision["action"],
      runId: decision.runId,
      toolCallId: decision.toolCallId,
      agentId: decision.agentId,
    };
  } catch (error) {
    await toolRanNoted?.catch(() => undefined);
    let failure = agentError(error, decision);
    if (failure instanceof AnswerLostError) {
      // Sent to a remote server that stopped answering: whether the tool ran (or is still running
      // there) is unknown. The decision stays "applying" and, its lease no longer renewed, recovery
      // settles it as it does a decision whose console server stopped (recover.ts).
      throw failure;
    }
    if (failure.code === "run_not_found" || failure.code === "tool_call_not_pending") {
      failure = (await decidedOutside(db, decision.runId, decision.toolCallId)) ?? failure;
    }
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
      await settleRun(db, decision);
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
