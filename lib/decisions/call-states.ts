/**
 * What the queue shows of the decisions on waiting calls: which are being decided now, which were
 * interrupted, which were marked expired, and how many approvals each has so far. Read-only; the
 * ledger (ledger.ts) writes them.
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { findApprovalProgress } from "./approval-progress.ts";
import { describePrior } from "./ledger.ts";
import { INTERRUPTED, type CallDecisionState, type Decision, type PriorDecision } from "./types.ts";

/**
 * The decision state of the pending calls among `runIds`, keyed by run and then tool call: calls
 * being decided right now (recorded or applying), calls whose last decision was interrupted, and
 * the approvals so far of calls that need several (approval-progress.ts).
 */
export async function findCallDecisionStates(runIds: string[], databaseUrl: string = databaseUrlFromEnv()) {
  const found = new Map<string, Map<string, CallDecisionState>>();
  if (runIds.length === 0) return found;
  const db = await getDb(databaseUrl);
  const rows = await db.toolCallDecision.findMany({
    where: {
      runId: { in: runIds },
      OR: [
        { state: { in: ["recorded", "applying"] } },
        { state: "released", error: INTERRUPTED },
        // Marked expired: the run still waits in the store, the console no longer decides it.
        { state: "applied", action: "expire", expiryMode: "mark" },
      ],
    },
    select: { runId: true, toolCallId: true, state: true, reviewer: true, action: true, decidedAt: true, updatedAt: true, reason: true },
  });
  for (const [runId, calls] of await findApprovalProgress(db, runIds)) {
    const states = found.get(runId) ?? new Map<string, CallDecisionState>();
    for (const [toolCallId, approvals] of calls) states.set(toolCallId, { approvals });
    found.set(runId, states);
  }
  for (const row of rows) {
    const calls = found.get(row.runId) ?? new Map<string, CallDecisionState>();
    const who = { reviewer: row.reviewer, action: row.action as Decision["action"], decidedAt: row.decidedAt.toISOString() };
    calls.set(row.toolCallId, {
      ...calls.get(row.toolCallId),
      ...(row.state === "released"
        ? { interrupted: { ...who, interruptedAt: row.updatedAt.toISOString() } }
        : row.state === "applied"
          ? { markedExpired: { expiredAt: row.decidedAt.toISOString(), reason: row.reason } }
          : { inFlight: who }),
    });
    found.set(row.runId, calls);
  }
  return found;
}

/** The latest decision recorded on any call of `runId`, or null when the console never decided one. */
export async function findLatestDecisionOfRun(runId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<PriorDecision | null> {
  const latest = await (await getDb(databaseUrl)).toolCallDecision.findFirst({ where: { runId }, orderBy: { decidedAt: "desc" } });
  return latest ? describePrior(latest) : null;
}

/**
 * The decision each call of `runId` stands under now, by tool call (a call has one record: the
 * first-wins row, taken over when released): none for a call whose decision was released and that
 * waits again. What the run page, kept live, shows of decisions made elsewhere.
 */
export async function findCurrentCallDecisions(
  runId: string,
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<Map<string, PriorDecision>> {
  const rows = await (await getDb(databaseUrl)).toolCallDecision.findMany({ where: { runId, state: { not: "released" } } });
  return new Map(rows.map((row) => [row.toolCallId, describePrior(row)]));
}
