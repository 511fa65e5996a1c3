/**
 * `call.overdue`: a pending call waited longer than the review target (REVIEW_SLA_MINUTES), announced
 * once per call (lib/announcements/record.ts makes it once across instances and restarts).
 *
 * Why it stays cheap with 100k suspended runs: a call becomes overdue when its run's updated_at falls
 * behind `now - target`, and that instant only moves forward. So each round reads only the runs
 * that crossed it since the previous round: a range of the (status, updated_at, …) index from a
 * watermark (the last run looked at) up to the cutoff, in batches, instead of every overdue run.
 * The watermark lives in memory and starts, after a restart, at the latest announced run (a single
 * index seek on call_announcements), so a restart re-reads only the few runs it had skipped; with no
 * announcement yet it starts one day before the cutoff, so a console installed on an old backlog
 * does not flood receivers with thousands of stale announcements. A call skipped because somebody
 * was deciding it is left behind the watermark: if that decision is later released, the call is not
 * announced overdue again (it was in a reviewer's hands).
 */
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { overdueCutoff, reviewSlaMinutes } from "../queue/review-target.ts";
import {
  announceOnce,
  announcedCalls,
  callKey,
  callsOf,
  decidedCalls,
  WAITING_RUN_COLUMNS,
  waitingCallData,
  type WaitingRun,
} from "./record.ts";

const BATCH = 200;
/** Batches per round at most: a large backlog crossing the target at once is worked off over rounds. */
const MAX_BATCHES = 5;
/** Where the first round ever starts, behind the cutoff. */
const FIRST_LOOKBACK_MS = 24 * 3_600_000;

type Watermark = { updatedAt: Date; runId: string };
const watermarks = new Map<string, Watermark>();

/** Announces the calls that became overdue since the last round; returns how many. */
export async function announceOverdueCalls(
  databaseUrl: string = databaseUrlFromEnv(),
  now: Date = new Date(),
  minutes: number = reviewSlaMinutes(),
): Promise<number> {
  const db = await getDb(databaseUrl);
  const cutoff = overdueCutoff(now, minutes);
  let mark = watermarks.get(databaseUrl) ?? (await startingWatermark(db, cutoff));
  let announced = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const runs: WaitingRun[] = await db.workflowSnapshot.findMany({
      where: {
        status: "suspended",
        agentId: { not: null },
        // The explicit lower bound is what lets the database start the index range at the watermark
        // (it does not derive one from the OR below).
        updatedAt: { gte: mark.updatedAt, lt: cutoff },
        // Keyset on (updated_at, run_id); the watermark's own run is read again (a crash may have
        // stopped between two calls of one run).
        OR: [{ updatedAt: { gt: mark.updatedAt } }, { updatedAt: mark.updatedAt, runId: { gte: mark.runId } }],
      },
      select: WAITING_RUN_COLUMNS,
      orderBy: [{ updatedAt: "asc" }, { runId: "asc" }],
      take: BATCH,
    });
    announced += await announceBatch(db, runs, now, minutes);
    if (runs.length > 0) mark = { updatedAt: runs.at(-1)!.updatedAt, runId: runs.at(-1)!.runId };
    watermarks.set(databaseUrl, mark);
    if (runs.length < BATCH) break;
  }
  return announced;
}

async function announceBatch(db: Db, runs: WaitingRun[], now: Date, minutes: number): Promise<number> {
  const [decided, announcedBefore] = await Promise.all([decidedCalls(db, runs), announcedCalls(db, "call.overdue", runs)]);
  let announced = 0;
  for (const run of runs) {
    for (const call of callsOf(run)) {
      const key = callKey(run.runId, call.toolCallId);
      if (decided.has(key) || announcedBefore.has(key)) continue;
      const data = {
        ...waitingCallData(run, call),
        overdueSince: new Date(run.updatedAt.getTime() + minutes * 60_000).toISOString(),
        reviewTargetMinutes: minutes,
      };
      if (await announceOnce(db, "call.overdue", run, call.toolCallId, data, now)) announced++;
    }
  }
  return announced;
}

async function startingWatermark(db: Db, cutoff: Date): Promise<Watermark> {
  const latest = await db.callAnnouncement.findFirst({
    where: { type: "call.overdue" },
    orderBy: [{ waitingSince: "desc" }, { runId: "desc" }],
    select: { waitingSince: true, runId: true },
  });
  return latest
    ? { updatedAt: latest.waitingSince, runId: latest.runId }
    : { updatedAt: new Date(cutoff.getTime() - FIRST_LOOKBACK_MS), runId: "" };
}

/** Forgets this process's watermarks, as a restart does (tests). */
export function forgetOverdueWatermarks(): void {
  watermarks.clear();
}
