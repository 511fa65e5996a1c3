/**
 * Decisions made outside the console. Anyone who can reach the agents can decide a waiting call
 * without the console: Mastra Studio, the team's own code, a direct call to their Mastra server. The
 * store records every call that stops waiting (`departed_tool_calls`, written by its triggers with
 * the snapshot write); here those departures are read against the console's own decisions, and each
 * one the console did not make becomes an audit entry, "decided outside the console", so the history
 * never silently misses a decision. A reviewer whose decision lost to an outside one is told so.
 */
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { appendAudit } from "../audit/log.ts";
import { DecisionError } from "./types.ts";

/** Who the history names for a decision made elsewhere. */
export const OUTSIDE_REVIEWER = "outside the console";

const BATCH = 200;

/**
 * Records, as audit entries, the calls that stopped waiting without a decision of the console's, and
 * forgets the departures the console's own decisions explain. A departure whose call has a console
 * decision still being carried out waits for it to settle. Safe to run from several instances at
 * once: each departure is claimed by deleting it, in the transaction that writes its entry.
 */
export async function recordOutsideDecisions(databaseUrl: string = databaseUrlFromEnv()): Promise<number> {
  const db = await getDb(databaseUrl);
  const departures = await db.departedToolCall.findMany({ orderBy: { departedAt: "asc" }, take: BATCH });
  if (departures.length === 0) return 0;
  const decisions = await db.toolCallDecision.findMany({
    where: { OR: departures.map(({ runId, toolCallId }) => ({ runId, toolCallId })) },
    select: { runId: true, toolCallId: true, state: true, toolRanAt: true },
  });
  const decisionOf = new Map(decisions.map((decision) => [`${decision.runId}\u0000${decision.toolCallId}`, decision]));
  let recorded = 0;
  for (const departure of departures) {
    const decision = decisionOf.get(`${departure.runId}\u0000${departure.toolCallId}`);
    if (decision?.state === "recorded" || decision?.state === "applying") continue;
    // The console's doing: its decision was carried out (or its tool ran before it failed).
    const ours = decision !== undefined && (decision.state === "applied" || decision.toolRanAt !== null);
    await db.$transaction(async (tx) => {
      const { count } = await tx.departedToolCall.deleteMany({ where: { runId: departure.runId, toolCallId: departure.toolCallId } });
      if (count === 0 || ours) return;
      recorded++;
      await appendAudit(
        tx,
        {
          reviewer: OUTSIDE_REVIEWER,
          action: "unknown",
          outcome: "decided-outside",
          runId: departure.runId,
          toolCallId: departure.toolCallId,
          agentId: departure.agentId,
          threadId: departure.threadId,
          resourceId: departure.resourceId,
          toolName: departure.toolName,
          message: departureMessage(departure),
        },
        departure.departedAt,
      );
    });
  }
  return recorded;
}

/**
 * The error for a call the console found no longer waiting when it was decided elsewhere, or
 * undefined when nothing says so. Read where a console decision finds its call gone.
 */
export async function decidedOutside(db: Db, runId: string, toolCallId: string): Promise<DecisionError | undefined> {
  const departure = await db.departedToolCall.findUnique({ where: { runId_toolCallId: { runId, toolCallId } } });
  const at =
    departure?.departedAt ??
    (await db.auditEvent.findFirst({ where: { runId, toolCallId, outcome: "decided-outside" }, orderBy: { id: "desc" } }))?.at;
  if (!at) return undefined;
  return new DecisionError(
    "decided_outside",
    `This call was decided outside the console at ${at.toISOString()} (in Mastra Studio, by the agent's own code or through its server directly): ` +
      "the run no longer waits on it, and this decision was not carried out.",
  );
}

function departureMessage({ runEnded, departedAt }: { runEnded: boolean; departedAt: Date }): string {
  const what = runEnded ? "the run ended" : "the run moved on";
  return `No decision in this console: ${what} at ${departedAt.toISOString()}, so the call was approved, declined or resumed elsewhere (Mastra Studio, the agent's own code, or its server's API).`;
}
