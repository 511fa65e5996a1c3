/**
 * Decisions made outside the console. Anyone who can reach the agents can decide a waiting call
 * without the console: Mastra Studio, the team's own code, a direct call to their Mastra server. The
 * store records every call that stops waiting (`departed_tool_calls`, written by its triggers with
 * the snapshot write); here those departures are read against the console's own decisions, and each
 * one the console did not make becomes an audit entry, "decided outside the console", and a
 * `call.decided` event (`decidedBy: "outside"`), so neither the history nor a receiver waiting on a
 * `call.waiting` silently misses a decision. A reviewer whose decision lost to an outside one is told so.
 */
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { appendAudit } from "../audit/log.ts";
import { emitEvent } from "../events/outbox.ts";
import type { DecidedBy } from "../events/types.ts";
import type { DepartedToolCall, ToolCallDecision } from "../generated/sqlite/client.ts";
import { isMarkExpiry } from "./mark-expiry.ts";
import { DecisionError } from "./types.ts";

/** Who the history names for a decision made elsewhere. */
export const OUTSIDE_REVIEWER = "outside the console";

const BATCH = 200;

type DecisionSeen = Pick<ToolCallDecision, "state" | "toolRanAt" | "action" | "expiryMode" | "decidedAt">;

/**
 * Whether the console itself made the call leave: its decision was carried out, or its tool ran
 * before it failed. A mark expiry is recorded as applied, yet nothing was sent to the agent: the
 * run still waited, and whoever continued it was not the console.
 */
function carriedOutByConsole(decision: DecisionSeen | undefined): boolean {
  if (!decision) return false;
  return (decision.state === "applied" && !isMarkExpiry(decision)) || decision.toolRanAt !== null;
}

/**
 * Records, as audit entries and `call.decided` events, the calls that stopped waiting without a
 * decision of the console's, and forgets the departures the console's own decisions explain. A
 * departure whose call has a console decision still being carried out waits for it to settle.
 * Safe to run from several instances at once: each departure is claimed by deleting it, in the
 * transaction that writes its entry and its event, so each is recorded and announced once.
 */
export async function recordOutsideDecisions(databaseUrl: string = databaseUrlFromEnv()): Promise<number> {
  const db = await getDb(databaseUrl);
  const departures = await db.departedToolCall.findMany({ orderBy: { departedAt: "asc" }, take: BATCH });
  if (departures.length === 0) return 0;
  const decisions = await db.toolCallDecision.findMany({
    where: { OR: departures.map(({ runId, toolCallId }) => ({ runId, toolCallId })) },
    select: { runId: true, toolCallId: true, state: true, toolRanAt: true, action: true, expiryMode: true, decidedAt: true },
  });
  const decisionOf = new Map(decisions.map((decision) => [`${decision.runId}\u0000${decision.toolCallId}`, decision]));
  let recorded = 0;
  for (const departure of departures) {
    const decision = decisionOf.get(`${departure.runId}\u0000${departure.toolCallId}`);
    if (decision?.state === "recorded" || decision?.state === "applying") continue;
    const ours = carriedOutByConsole(decision);
    const markedExpiredAt = decision && isMarkExpiry(decision) ? decision.decidedAt : undefined;
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
          message: departureMessage(departure, markedExpiredAt),
        },
        departure.departedAt,
      );
      await emitEvent(tx, "call.decided", outsideDecidedEvent(departure));
    });
  }
  return recorded;
}

/**
 * `call.decided` for a call decided elsewhere, in the shape of the console's own (ledger.ts) where
 * the console knows the value, null where it does not: nobody here saw what was decided (`action`),
 * why, or what the agent answered. `state` is "applied" because the run did go on past the call
 * (or its snapshot was deleted: `runEnded`); `decidedAt` is when the store saw the call leave.
 */
function outsideDecidedEvent(departure: DepartedToolCall) {
  const decidedBy: DecidedBy = "outside";
  return {
    runId: departure.runId,
    toolCallId: departure.toolCallId,
    toolName: departure.toolName,
    agentId: departure.agentId,
    threadId: departure.threadId,
    resourceId: departure.resourceId,
    decisionId: null,
    reviewer: OUTSIDE_REVIEWER,
    action: null,
    reason: null,
    state: "applied",
    answer: null,
    error: null,
    decidedAt: departure.departedAt.toISOString(),
    decidedBy,
    runEnded: departure.runEnded,
  };
}

/**
 * The error for a call the console found no longer waiting when it was decided elsewhere, or
 * undefined when nothing says so. Read where a console decision finds its call gone. With
 * `markedExpiredAt`, the call had been marked expired first: both are said.
 */
export async function decidedOutside(
  db: Db,
  runId: string,
  toolCallId: string,
  markedExpiredAt?: Date,
): Promise<DecisionError | undefined> {
  const departure = await db.departedToolCall.findUnique({ where: { runId_toolCallId: { runId, toolCallId } } });
  const at =
    departure?.departedAt ??
    (await db.auditEvent.findFirst({ where: { runId, toolCallId, outcome: "decided-outside" }, orderBy: { id: "desc" } }))?.at;
  if (!at) return undefined;
  const expired = markedExpiredAt ? `This call was marked expired at ${markedExpiredAt.toISOString()}, and ` : "This call was ";
  return new DecisionError(
    "decided_outside",
    `${expired}decided outside the console at ${at.toISOString()} (in Mastra Studio, by the agent's own code or through its server directly): ` +
      "the run no longer waits on it, and this decision was not carried out.",
  );
}

/** When a call of `runId` was last recorded as decided outside the console, or null. */
export async function lastOutsideDecisionOfRun(runId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<Date | null> {
  const db = await getDb(databaseUrl);
  const latest = await db.auditEvent.findFirst({
    where: { runId, outcome: "decided-outside" },
    orderBy: { at: "desc" },
    select: { at: true },
  });
  return latest?.at ?? null;
}

function departureMessage({ runEnded, departedAt }: { runEnded: boolean; departedAt: Date }, markedExpiredAt?: Date): string {
  const at = departedAt.toISOString();
  if (markedExpiredAt) {
    // A mark expiry only marks: the run kept waiting in the store, for anyone else to continue (or delete).
    const what = runEnded ? `the run ended (or its snapshot was deleted) at ${at}` : `the run moved on at ${at}`;
    return `Marked expired at ${markedExpiredAt.toISOString()} (expiry mode: mark), then ${what} without this console: the call was approved, declined or resumed elsewhere (Mastra Studio, the agent's own code, or its server's API).`;
  }
  const what = runEnded ? "the run ended" : "the run moved on";
  return `No decision in this console: ${what} at ${at}, so the call was approved, declined or resumed elsewhere (Mastra Studio, the agent's own code, or its server's API).`;
}
