/**
 * The insights' counts, read two ways into the same shapes: from the rollups the triggers keep
 * (every request without a resource filter: sums of small indexed rows, never the history), or,
 * under a resource prefix, from the calls' own rows (call_reviews, by its resource index), since a
 * rollup cannot know every prefix. lib/insights/insights.ts turns either into the panels.
 */
import type { Db } from "../db/client.ts";
import { planDays } from "./hours.ts";
import type { Period } from "./period.ts";
import { bucketOfWait, NOT_RECORDED_BUCKET } from "./wait-scale.ts";

export interface Filters {
  agentId?: string;
  toolName?: string;
  risk?: string;
  resourcePrefix?: string;
}

/** Calls by agent, tool, risk, who decided and what ("arrived"/"wait": started waiting). */
export interface OutcomeFact {
  agentId: string;
  toolName: string;
  risk: string;
  source: string;
  action: string;
  calls: number;
  timed: number;
  withinTarget: number;
}

/** Counts per local day of the period and source. */
export interface DayFact {
  date: string;
  source: string;
  calls: number;
  timed: number;
  withinTarget: number;
}

/** People's decisions on the wait scale. */
export interface WaitFact {
  agentId: string;
  toolName: string;
  risk: string;
  bucket: number;
  calls: number;
}

export interface ReviewerFact {
  reviewer: string;
  calls: number;
  approved: number;
  unopened: number;
  quick: number;
  streak: number;
}

/** A reviewer's decisions on the wait scale (not narrowed by the agent, tool and risk filters). */
export interface ReviewerWaitFact {
  reviewer: string;
  bucket: number;
  calls: number;
}

export interface Facts {
  outcomes: OutcomeFact[];
  days: DayFact[];
  waits: WaitFact[];
  reviewers: ReviewerFact[];
  reviewerWaits: ReviewerWaitFact[];
  /** False under a resource prefix: the quick and streak signals are kept per reviewer only in the rollups. */
  signalsCounted: boolean;
}

const n = (value: number | bigint | null | undefined) => Number(value ?? 0);

/** The facts from the rollups: the period's whole UTC days and its remaining hours (hours.ts). */
export async function rollupFacts(db: Db, period: Period, filters: Filters): Promise<Facts> {
  const plan = planDays(period);
  const where = { agentId: filters.agentId, toolName: filters.toolName, risk: filters.risk };
  const whole = plan.wholeDays.length ? { gte: plan.wholeDays[0]!, lte: plan.wholeDays.at(-1)! } : { in: [] as number[] };
  const touched = { gte: Math.floor(plan.fromHour / 24), lte: Math.floor((plan.toHour - 1) / 24) };
  const sums = { calls: true, timed: true, withinTarget: true } as const;
  const [dayOutcomes, edgeOutcomes, daySources, hourSources, waits, reviewers, reviewerWaits] = await Promise.all([
    db.insightDay.groupBy({ by: ["agentId", "toolName", "risk", "source", "action"], where: { ...where, day: whole }, _sum: sums }),
    db.insightHour.groupBy({
      by: ["agentId", "toolName", "risk", "source", "action"],
      where: { ...where, hour: { in: plan.edgeHours } },
      _sum: sums,
    }),
    db.insightDay.groupBy({ by: ["day", "source"], where: { ...where, day: whole }, _sum: sums }),
    db.insightHour.groupBy({
      by: ["hour", "source"],
      where: { ...where, hour: { in: [...plan.edgeHours, ...plan.splitHours] } },
      _sum: sums,
    }),
    db.insightWaitDay.groupBy({ by: ["agentId", "toolName", "risk", "bucket"], where: { ...where, day: touched }, _sum: { calls: true } }),
    db.insightReviewerDay.groupBy({
      by: ["reviewer"],
      where: { ...where, day: touched },
      _sum: { calls: true, approved: true, unopened: true, quick: true, streak: true },
    }),
    db.insightReviewerWait.groupBy({ by: ["reviewer", "bucket"], where: { day: touched }, _sum: { calls: true } }),
  ]);
  const counted = <K extends object>({
    _sum,
    ...key
  }: K & { _sum: { calls: number | null; timed: number | null; withinTarget: number | null } }) => ({
    ...key,
    calls: n(_sum.calls),
    timed: n(_sum.timed),
    withinTarget: n(_sum.withinTarget),
  });
  const outcomes = new Map<string, OutcomeFact>();
  for (const fact of [...dayOutcomes, ...edgeOutcomes].map(counted)) {
    const id = `${fact.agentId}\u0000${fact.toolName}\u0000${fact.risk}\u0000${fact.source}\u0000${fact.action}`;
    const row = outcomes.get(id);
    if (row) {
      row.calls += fact.calls;
      row.timed += fact.timed;
      row.withinTarget += fact.withinTarget;
    } else outcomes.set(id, fact);
  }
  // Per local day: every fetched hour on its own date; each whole UTC day, less its split hours, on its largest piece's date.
  const days = new Map<string, DayFact>();
  const addTo = (date: string, source: string, counts: { calls: number; timed: number; withinTarget: number }, sign = 1) => {
    const id = `${date}\u0000${source}`;
    const row = days.get(id) ?? { date, source, calls: 0, timed: 0, withinTarget: 0 };
    row.calls += sign * counts.calls;
    row.timed += sign * counts.timed;
    row.withinTarget += sign * counts.withinTarget;
    days.set(id, row);
  };
  for (const fact of daySources.map(counted)) addTo(plan.remainderDateOf.get(fact.day)!, fact.source, fact);
  for (const fact of hourSources.map(counted)) {
    addTo(plan.dateOfHour(fact.hour), fact.source, fact);
    const day = Math.floor(fact.hour / 24);
    if (plan.remainderDateOf.has(day)) addTo(plan.remainderDateOf.get(day)!, fact.source, fact, -1);
  }
  return {
    outcomes: [...outcomes.values()],
    days: [...days.values()],
    waits: waits.map(({ _sum, ...key }) => ({ ...key, calls: n(_sum.calls) })),
    reviewers: reviewers.map(({ _sum, reviewer }) => ({
      reviewer,
      calls: n(_sum.calls),
      approved: n(_sum.approved),
      unopened: n(_sum.unopened),
      quick: n(_sum.quick),
      streak: n(_sum.streak),
    })),
    reviewerWaits: reviewerWaits.map(({ _sum, ...key }) => ({ ...key, calls: n(_sum.calls) })),
    signalsCounted: true,
  };
}

/**
 * The same facts from the calls' rows under a resource prefix: the calls that started waiting or
 * were decided in the period's hours, each on the local day the rollups would count it on, with the
 * review targets in force now for "within target". The quick and streak signals are kept only in
 * the rollups, per reviewer: not counted here.
 */
export async function reviewFacts(db: Db, period: Period, filters: Filters & { resourcePrefix: string }): Promise<Facts> {
  const plan = planDays(period);
  const range = { gte: new Date(plan.fromHour * HOUR_MS), lt: new Date(plan.toHour * HOUR_MS) };
  const after = prefixEnd(filters.resourcePrefix);
  const resourceId = after === null ? { gte: filters.resourcePrefix } : { gte: filters.resourcePrefix, lt: after };
  const common = { agentId: filters.agentId, toolName: filters.toolName, resourceId };
  const [arrived, decided, targets] = await Promise.all([
    db.callReview.findMany({
      where: { ...common, waitingSince: range },
      select: { agentId: true, toolName: true, resourceId: true, risk: true, waitingSince: true },
    }),
    db.callReview.findMany({
      where: { ...common, risk: filters.risk, decidedAt: range },
      select: {
        agentId: true,
        toolName: true,
        resourceId: true,
        risk: true,
        waitingSince: true,
        decidedAt: true,
        decidedBy: true,
        action: true,
        source: true,
        contextOpened: true,
      },
    }),
    db.insightTarget.findMany(),
  ]);
  // The range holds exactly the ids with the prefix; checked again all the same, as the range is code point arithmetic.
  const matches = (row: { resourceId: string | null }) => row.resourceId?.startsWith(filters.resourcePrefix) ?? false;
  const dateOf = (at: Date) => plan.dateOfHour(Math.floor(at.getTime() / HOUR_MS));
  const targetMs = new Map(targets.map((target) => [target.risk, target.minutes * 60_000]));
  const outcomes = new Counter<OutcomeFact>();
  const days = new Counter<DayFact>();
  const waits = new Counter<WaitFact>();
  const reviewers = new Counter<ReviewerFact>();
  const reviewerWaits = new Counter<ReviewerWaitFact>();
  for (const call of arrived.filter(matches)) {
    // A call's row keeps the risk it was decided with: arrivals under a risk filter count those.
    if (filters.risk && call.risk !== filters.risk) continue;
    const key = { agentId: call.agentId, toolName: call.toolName, risk: call.risk ?? "unrated", source: "arrived", action: "wait" };
    outcomes.add(key, { calls: 1, timed: 0, withinTarget: 0 });
    days.add({ date: dateOf(call.waitingSince!), source: "arrived" }, { calls: 1, timed: 0, withinTarget: 0 });
  }
  for (const call of decided.filter(matches)) {
    const risk = call.risk ?? "unrated";
    const waitMs = call.waitingSince ? Math.max(0, call.decidedAt!.getTime() - call.waitingSince.getTime()) : null;
    const counts = {
      calls: 1,
      timed: waitMs === null ? 0 : 1,
      withinTarget: waitMs !== null && call.source !== "outside" && waitMs < (targetMs.get(risk) ?? 0) ? 1 : 0,
    };
    outcomes.add({ agentId: call.agentId, toolName: call.toolName, risk, source: call.source!, action: call.action! }, counts);
    days.add({ date: dateOf(call.decidedAt!), source: call.source! }, counts);
    if (call.source !== "person") continue;
    const bucket = waitMs === null ? NOT_RECORDED_BUCKET : bucketOfWait(waitMs);
    waits.add({ agentId: call.agentId, toolName: call.toolName, risk, bucket }, { calls: 1 });
    reviewerWaits.add({ reviewer: call.decidedBy!, bucket }, { calls: 1 });
    reviewers.add(
      { reviewer: call.decidedBy! },
      { calls: 1, approved: call.action === "approve" ? 1 : 0, unopened: call.contextOpened ? 0 : 1, quick: 0, streak: 0 },
    );
  }
  return {
    outcomes: outcomes.rows(),
    days: days.rows(),
    waits: waits.rows(),
    reviewers: reviewers.rows(),
    reviewerWaits: reviewerWaits.rows(),
    signalsCounted: false,
  };
}

const HOUR_MS = 3_600_000;

/**
 * The first string after every string that starts with `prefix`, in code point order (SQLite's
 * BINARY, and the "C" collation call_reviews.resource_id has on PostgreSQL), or null when there is
 * none: a range of the resource index, where LIKE 'prefix%' would read the whole period.
 */
export function prefixEnd(prefix: string): string | null {
  const points = [...prefix].map((char) => char.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return null;
}

/** Rows of counts by key, summed as they are added. */
class Counter<Row extends object> {
  private readonly byKey = new Map<string, Record<string, unknown>>();
  add(key: Partial<Row>, counts: Partial<Row>): void {
    // Keys of one counter are built with the same fields in the same order: their values name the row.
    let id = "";
    for (const value of Object.values(key)) id += value === null || value === undefined ? "\u0002\u0001" : `${value as string}\u0001`;
    const row = this.byKey.get(id) ?? { ...key };
    for (const [field, value] of Object.entries(counts)) row[field] = ((row[field] as number | undefined) ?? 0) + (value as number);
    this.byKey.set(id, row);
  }
  rows(): Row[] {
    return [...this.byKey.values()] as Row[];
  }
}
