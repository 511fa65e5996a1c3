/**
 * Events the console announces on its own clock about a call that still waits (`call.overdue`,
 * `call.expiring`), as opposed to events caused by a change (a decision, a snapshot write). Nothing
 * changes when a call crosses a time, so what makes each announcement happen once is a row of its own:
 * `call_announcements`, unique per (run, call, type), written in the same transaction as the event.
 * Several console instances racing over the same call write one row and one event; a restart finds
 * the row and stays quiet.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import { emitEvent } from "../events/outbox.ts";
import type { EventType } from "../events/types.ts";

/** The announcements made on the clock. */
export type AnnouncedType = Extract<EventType, "call.overdue" | "call.expiring">;

/** A suspended run as the announcers read it from workflow_snapshots. */
export interface WaitingRun {
  runId: string;
  workflowName: string;
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
  updatedAt: Date;
  toolCalls: string | null;
}

export const WAITING_RUN_COLUMNS = {
  runId: true,
  workflowName: true,
  agentId: true,
  threadId: true,
  resourceId: true,
  updatedAt: true,
  toolCalls: true,
} as const;

/** A run's pending calls that have an id (each is announced on its own). */
export function callsOf(run: WaitingRun): Array<AgentRunToolCall & { toolCallId: string }> {
  const calls = JSON.parse(run.toolCalls ?? "[]") as AgentRunToolCall[];
  return calls.filter((call): call is AgentRunToolCall & { toolCallId: string } => Boolean(call.toolCallId));
}

/** The data every announcement about a waiting call carries: the same fields as `call.waiting`. */
export function waitingCallData(run: WaitingRun, call: AgentRunToolCall & { toolCallId: string }) {
  return {
    runId: run.runId,
    toolCallId: call.toolCallId,
    // A delegated call is named by its supervisor's `agent-<name>` tool: announce the tool that waits.
    toolName: call.path?.at(-1) ?? call.toolName ?? null,
    agentId: run.agentId,
    threadId: run.threadId,
    resourceId: run.resourceId,
    workflowName: run.workflowName,
    waitingSince: run.updatedAt.toISOString(),
  };
}

/**
 * The calls among `runs` that somebody is deciding or decided (a decision recorded, being carried
 * out, applied or failed; a released one leaves the call pending again), as "runId toolCallId" keys.
 * Nobody needs to hear that such a call is overdue or about to expire.
 */
export async function decidedCalls(db: Db, runs: WaitingRun[]): Promise<Set<string>> {
  if (runs.length === 0) return new Set();
  const decisions = await db.toolCallDecision.findMany({
    where: { runId: { in: runs.map((run) => run.runId) }, state: { not: "released" } },
    select: { runId: true, toolCallId: true },
  });
  return new Set(decisions.map((decision) => callKey(decision.runId, decision.toolCallId)));
}

/** The calls among `runs` already announced as `type`, as "runId toolCallId" keys: one read instead of a failed insert each. */
export async function announcedCalls(db: Db, type: AnnouncedType, runs: WaitingRun[]): Promise<Set<string>> {
  if (runs.length === 0) return new Set();
  const rows = await db.callAnnouncement.findMany({
    where: { type, runId: { in: runs.map((run) => run.runId) } },
    select: { runId: true, toolCallId: true },
  });
  return new Set(rows.map((row) => callKey(row.runId, row.toolCallId)));
}

export const callKey = (runId: string, toolCallId: string) => `${runId} ${toolCallId}`;

/**
 * Announces `type` for one call unless it was announced before (by this or another instance):
 * the announcement row and the event are one transaction. Returns whether this call announced it.
 */
export async function announceOnce(
  db: Db,
  type: AnnouncedType,
  run: WaitingRun,
  toolCallId: string,
  data: Record<string, unknown>,
  now: Date,
): Promise<boolean> {
  try {
    await db.$transaction(async (tx) => {
      await tx.callAnnouncement.create({
        data: { runId: run.runId, toolCallId, type, waitingSince: run.updatedAt, announcedAt: now },
      });
      await emitEvent(tx, type, data, now);
    });
    return true;
  } catch (error) {
    // Another instance announced it first (its row won the primary key): nothing to add.
    if ((error as { code?: string }).code === "P2002") return false;
    throw error;
  }
}

/** Announcements are kept at most this long, whether or not their run still waits. */
export const ANNOUNCEMENTS_KEPT_MS = 30 * 24 * 3_600_000;
const PRUNE_BATCH = 500;

/**
 * Deletes announcements whose run no longer waits (it was decided or ended: the row can never matter
 * again) and those older than ANNOUNCEMENTS_KEPT_MS. Run by the hourly outbox pruning. The runs
 * still waiting are found per batch through workflow_snapshots' run_id index; a cursor over
 * (announcedAt, run) carries the sweep across rounds, so old rows of runs that still wait do not
 * hide the newer ones behind them. Returns how many rows it deleted.
 */
export async function pruneAnnouncements(db: Db, now: Date = new Date(), rounds = 10): Promise<number> {
  let deleted = (await db.callAnnouncement.deleteMany({ where: { announcedAt: { lt: new Date(now.getTime() - ANNOUNCEMENTS_KEPT_MS) } } }))
    .count;
  for (let round = 0; round < rounds; round++) {
    const after = sweepCursor.get(db);
    const batch = await db.callAnnouncement.findMany({
      where: after
        ? { OR: [{ announcedAt: { gt: after.announcedAt } }, { announcedAt: after.announcedAt, runId: { gt: after.runId } }] }
        : {},
      orderBy: [{ announcedAt: "asc" }, { runId: "asc" }],
      select: { runId: true, announcedAt: true },
      take: PRUNE_BATCH,
    });
    if (batch.length < PRUNE_BATCH) sweepCursor.delete(db);
    else sweepCursor.set(db, batch.at(-1)!);
    const runIds = [...new Set(batch.map((row) => row.runId))];
    const waiting = await db.workflowSnapshot.findMany({
      where: { runId: { in: runIds }, status: "suspended" },
      select: { runId: true },
    });
    const stillWaiting = new Set(waiting.map((row) => row.runId));
    const gone = runIds.filter((runId) => !stillWaiting.has(runId));
    if (gone.length > 0) deleted += (await db.callAnnouncement.deleteMany({ where: { runId: { in: gone } } })).count;
    if (batch.length < PRUNE_BATCH) break;
  }
  return deleted;
}
const sweepCursor = new WeakMap<Db, { announcedAt: Date; runId: string }>();
