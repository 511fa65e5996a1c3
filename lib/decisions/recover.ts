/**
 * Recovery: takes over decisions whose process stopped (lease expired) and ends each in a true
 * state, explained in the audit log. Runs at every server start and periodically
 * (lib/server-work.ts); safe on several servers at once: each decision is taken by one of them.
 *  - never sent: carried out;
 *  - the tool ran (`toolRanAt`), or the run has moved past the call (it waits on another call, or
 *    Mastra deleted its outer snapshot because it finished): applied, and what Mastra left of the
 *    run (a snapshot still "suspended" on this call, an orphaned inner snapshot) is settled;
 *  - sent, the call still pending, no tool result seen: a decline is carried out again (it never
 *    runs a tool); an approval or resume is released as INTERRUPTED. The tool may have run (Mastra
 *    writes nothing between running the tool and finishing the run, so the store cannot tell):
 *    the queue and the run page say so, and deciding it again needs `confirmMayHaveRun`.
 */
import { decidedOutside } from "./outside.ts";
import { argsDigestOf } from "../audit/args-digest.ts";
import { appendAudit } from "../audit/log.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { carryOut } from "./carry-out.ts";
import { markExpired } from "./mark-expiry.ts";
import { auditOf, decisionLeaseMs, transition } from "./ledger.ts";
import { resolveOwner } from "./owners.ts";
import { settleRun, whereIsTheRun } from "./run-position.ts";
import { declinesCall, INTERRUPTED, type DecisionState } from "./types.ts";

/** Carrying out a decision later than it was made: the run must still wait on the arguments it was made on. */
async function stillWaitsOnArguments(decision: ToolCallDecision, databaseUrl: string): Promise<boolean> {
  if (!decision.argsDigest) return true;
  const run = await findSuspendedRun(decision.runId, databaseUrl);
  const call = run?.toolCalls.find((candidate) => candidate.toolCallId === decision.toolCallId);
  return !call || argsDigestOf(call) === decision.argsDigest;
}

export interface RecoveryReport {
  carriedOut: number;
  released: number;
  applied: number;
  failed: number;
}

/**
 * Takes over decisions whose process stopped (lease expired) and ends each in a state the audit log
 * explains. Safe to run from several servers at once: each decision is taken by one of them.
 */
export async function recoverDecisions(databaseUrl: string = databaseUrlFromEnv()): Promise<RecoveryReport> {
  const db = await getDb(databaseUrl);
  const report: RecoveryReport = { carriedOut: 0, released: 0, applied: 0, failed: 0 };
  const stale = await db.toolCallDecision.findMany({
    where: { state: { in: ["recorded", "applying"] }, leaseUntil: { lt: new Date() } },
    orderBy: { decidedAt: "asc" },
    take: 100,
  });
  for (const decision of stale) {
    const lease = new Date(Date.now() + decisionLeaseMs());
    const { count } = await db.toolCallDecision.updateMany({
      where: { id: decision.id, state: decision.state, leaseUntil: decision.leaseUntil },
      data: { leaseUntil: lease, updatedAt: new Date() },
    });
    if (count === 0) continue; // another server took it
    const taken = { ...decision, leaseUntil: lease };
    const from = taken.state as DecisionState;
    const neverSent = from === "recorded";
    const run = await whereIsTheRun(db, taken);
    /** Applied: the tool ran or the run went on. What Mastra left of a run that will not continue is removed. */
    const settleAsApplied = async (message: string) => {
      await transition(db, taken, from, "applied", {}, { outcome: "recovered", message });
      await settleRun(db, taken);
      report.applied++;
    };

    if (run === "pending" && !taken.toolRanAt && (neverSent || declinesCall(taken.action))) {
      if (!neverSent) {
        await transition(
          db,
          taken,
          "applying",
          "recorded",
          {},
          {
            outcome: "recovered",
            message: "The server stopped while declining; a decline never runs the tool, so it is carried out again.",
          },
        );
      } else {
        await appendAudit(
          db,
          auditOf(taken, {
            outcome: "recovered",
            message: "The server stopped after recording this decision and before applying it; carrying it out now.",
          }),
        );
      }
      if (!(await stillWaitsOnArguments(taken, databaseUrl))) {
        await transition(
          db,
          taken,
          "recorded",
          "released",
          { error: "arguments_changed" },
          {
            outcome: "released",
            code: "arguments_changed",
            message:
              "The call no longer waits on the arguments the reviewer was shown: the decision was not carried out, and the call is decidable again.",
          },
        );
        report.released++;
        continue;
      }
      try {
        // A mark-mode expiry is never sent to the agent: it is only applied.
        if (taken.action === "expire" && taken.expiryMode === "mark") await markExpired(db, { ...taken, state: "recorded" });
        else await carryOut(db, { ...taken, state: "recorded" }, await resolveOwner(taken.agentId, databaseUrl));
        report.carriedOut++;
      } catch {
        report.failed++;
      }
    } else if (run === "pending" && taken.toolRanAt) {
      await settleAsApplied(
        `The tool ran (the agent reported its result at ${taken.toolRanAt.toISOString()}) before the server stopped, so the decision was carried out; the agent's answer after it was lost. The run was settled so that its tool cannot run again.`,
      );
    } else if (run === "pending") {
      await transition(
        db,
        taken,
        "applying",
        "released",
        { error: INTERRUPTED },
        {
          outcome: "interrupted",
          message:
            "The server stopped while the agent was carrying out this decision. The tool may have run; check its effect before deciding again (its idempotency key is the tool call id). The tool call is decidable again, with a confirmation.",
        },
      );
      report.released++;
    } else if (!neverSent && (run === "finished" || run === "moved-on")) {
      await settleAsApplied(
        run === "finished"
          ? "The run had finished before its server stopped: the decision was carried out (the agent's answer was not kept)."
          : "The run had moved past this call (it waits on another one) before its server stopped: the decision was carried out.",
      );
    } else {
      const outside = neverSent ? await decidedOutside(db, taken.runId, taken.toolCallId) : undefined;
      await transition(
        db,
        taken,
        from,
        "failed",
        { error: `run ${run}` },
        {
          outcome: "failed",
          code: outside?.code ?? (run === "finished" ? "run_not_found" : "tool_call_not_pending"),
          message:
            outside?.message ??
            (neverSent
              ? `The run no longer waits on this call (${run}): this decision was never sent to the agent and was not carried out.`
              : `The server stopped mid-decision and the run is ${run}; its snapshot was left as it is.`),
        },
      );
      if (run === "finished") await settleRun(db, taken);
      report.failed++;
    }
  }
  return report;
}
