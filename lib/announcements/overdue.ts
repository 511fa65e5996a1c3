/**
 * `call.overdue`: a pending call waited longer than its review target (its risk's,
 * `REVIEW_TARGET_<RISK>_MINUTES`, or `REVIEW_SLA_MINUTES` for a call no rule rated), announced once
 * per call (lib/announcements/record.ts makes it once across instances and restarts).
 *
 * Why it stays cheap with 100k suspended runs: for one target, a call becomes overdue when its run's
 * updated_at falls behind `now - target`, and that instant only moves forward. So each round reads
 * only the runs that crossed it since the previous round: a range of the (status, updated_at, …)
 * index from a watermark (the last run looked at) up to the cutoff, in batches, instead of every
 * overdue run. Calls with different targets cross at different instants, so there is one watermark
 * per distinct target (at most five), and a scan announces only the calls whose target it is.
 *
 * The watermarks live in memory. After a restart each starts at the latest call of its target
 * announced overdue (a range read again is harmless: announced calls are skipped), and never more
 * than one day before its cutoff, so a console installed on an old backlog does not flood receivers
 * with thousands of stale announcements. A call skipped because somebody was deciding it is left behind
 * the watermark: if that decision is later released, the call is not announced overdue again (it was
 * in a reviewer's hands).
 */
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { overdueCutoff, reviewSlaMinutes, riskTargetMinutes } from "../queue/review-target.ts";
import { isRisk, RISKS, type Risk } from "../risk.ts";
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
/** Batches per round and target at most: a large backlog crossing a target at once is worked off over rounds. */
const MAX_BATCHES = 5;
/** Where the first round ever starts, behind the cutoff. */
const FIRST_LOOKBACK_MS = 24 * 3_600_000;

/** The review targets in minutes: of calls no rule rated, and of each risk. */
export interface ReviewTargets {
  unrated: number;
  byRisk: Record<Risk, number>;
}

export function configuredReviewTargets(): ReviewTargets {
  return { unrated: reviewSlaMinutes(), byRisk: riskTargetMinutes() };
}

/** One target with the calls it applies to: "unrated" stands for calls without a risk. */
type TargetClass = { minutes: number; applies: Set<Risk | "unrated"> };

function targetClasses(targets: ReviewTargets): TargetClass[] {
  const classes = new Map<number, TargetClass>();
  const add = (minutes: number, who: Risk | "unrated") => {
    const found = classes.get(minutes) ?? { minutes, applies: new Set() };
    found.applies.add(who);
    classes.set(minutes, found);
  };
  add(targets.unrated, "unrated");
  for (const risk of RISKS) add(targets.byRisk[risk], risk);
  return [...classes.values()];
}

type Watermark = { updatedAt: Date; runId: string };
const watermarks = new Map<string, Watermark>();

/** Announces the calls that became overdue since the last round; returns how many. */
export async function announceOverdueCalls(
  databaseUrl: string = databaseUrlFromEnv(),
  now: Date = new Date(),
  targets: ReviewTargets = configuredReviewTargets(),
): Promise<number> {
  const db = await getDb(databaseUrl);
  let announced = 0;
  for (const target of targetClasses(targets)) {
    const key = `${databaseUrl}\u0000${target.minutes}`;
    const cutoff = overdueCutoff(now, target.minutes);
    let mark = watermarks.get(key) ?? (await startingWatermark(db, target, cutoff));
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
      announced += await announceBatch(db, runs, now, target);
      if (runs.length > 0) mark = { updatedAt: runs.at(-1)!.updatedAt, runId: runs.at(-1)!.runId };
      watermarks.set(key, mark);
      if (runs.length < BATCH) break;
    }
  }
  return announced;
}

async function announceBatch(db: Db, runs: WaitingRun[], now: Date, target: TargetClass): Promise<number> {
  if (runs.length === 0) return 0;
  const [decided, announcedBefore, risks] = await Promise.all([
    decidedCalls(db, runs),
    announcedCalls(db, "call.overdue", runs),
    risksOf(db, runs),
  ]);
  let announced = 0;
  for (const run of runs) {
    for (const call of callsOf(run)) {
      const key = callKey(run.runId, call.toolCallId);
      if (decided.has(key) || announcedBefore.has(key)) continue;
      const risk = risks.get(key);
      if (!target.applies.has(risk ?? "unrated")) continue;
      const data = {
        ...waitingCallData(run, call),
        overdueSince: new Date(run.updatedAt.getTime() + target.minutes * 60_000).toISOString(),
        reviewTargetMinutes: target.minutes,
        risk: risk ?? null,
      };
      if (await announceOnce(db, "call.overdue", run, call.toolCallId, data, now)) announced++;
    }
  }
  return announced;
}

/** The risk of each rated call of these runs, by "runId toolCallId" key. */
async function risksOf(db: Db, calls: Array<{ runId: string }>): Promise<Map<string, Risk>> {
  if (calls.length === 0) return new Map();
  const matches = await db.callRuleMatch.findMany({
    where: { runId: { in: [...new Set(calls.map((call) => call.runId))] }, risk: { not: null } },
    select: { runId: true, toolCallId: true, risk: true },
  });
  const risks = new Map<string, Risk>();
  for (const match of matches) if (isRisk(match.risk)) risks.set(callKey(match.runId, match.toolCallId), match.risk);
  return risks;
}

/**
 * Where a restarted scan for `target` starts: at the latest call of its class announced overdue (the
 * previous process had scanned at least that far), read newest first from the (type, waiting_since)
 * index; never more than a day before the cutoff.
 */
async function startingWatermark(db: Db, target: TargetClass, cutoff: Date): Promise<Watermark> {
  const earliest = new Date(cutoff.getTime() - FIRST_LOOKBACK_MS);
  let before: { waitingSince: Date; runId: string } | undefined;
  for (;;) {
    const announced = await db.callAnnouncement.findMany({
      where: {
        type: "call.overdue",
        waitingSince: { gte: earliest, ...(before ? { lte: before.waitingSince } : {}) },
        ...(before ? { NOT: { waitingSince: before.waitingSince, runId: { gte: before.runId } } } : {}),
      },
      orderBy: [{ waitingSince: "desc" }, { runId: "desc" }],
      select: { runId: true, toolCallId: true, waitingSince: true },
      take: BATCH,
    });
    const risks = await risksOf(db, announced);
    const latest = announced.find((call) => target.applies.has(risks.get(callKey(call.runId, call.toolCallId)) ?? "unrated"));
    if (latest) return { updatedAt: latest.waitingSince, runId: latest.runId };
    if (announced.length < BATCH) return { updatedAt: earliest, runId: "" };
    before = announced.at(-1)!;
  }
}

/** Forgets this process's watermarks, as a restart does (tests). */
export function forgetOverdueWatermarks(): void {
  watermarks.clear();
}
