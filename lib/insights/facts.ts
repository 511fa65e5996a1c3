/**
 * The insights' counts, read two ways into the same shapes: from the rollups the triggers keep
 * (every request without a resource filter: sums of small indexed rows, never the history), or,
 * under a resource prefix, from the calls' own rows (call_reviews, by its resource index), since a
 * rollup cannot know every prefix. lib/insights/insights.ts turns either into the panels.
 */
import type { Db } from "../db/client.ts";
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

export interface HourFact {
  hour: Date;
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
  action: string;
  bucket: number;
  calls: number;
  unopened: number;
  quick: number;
  streak: number;
}

export interface Facts {
  outcomes: OutcomeFact[];
  hours: HourFact[];
  waits: WaitFact[];
  reviewers: ReviewerFact[];
  /** False under a resource prefix: the quick and streak signals are kept per reviewer only in the rollups. */
  signalsCounted: boolean;
}

const n = (value: number | bigint | null | undefined) => Number(value ?? 0);

export async function rollupFacts(db: Db, range: { from: Date; to: Date; dayFrom: Date }, filters: Filters): Promise<Facts> {
  const where = { agentId: filters.agentId, toolName: filters.toolName, risk: filters.risk };
  const hourWhere = { ...where, hour: { gte: range.from, lt: range.to } };
  const dayWhere = { ...where, day: { gte: range.dayFrom, lt: range.to } };
  const [outcomes, hours, waits, reviewers] = await Promise.all([
    db.insightHour.groupBy({
      by: ["agentId", "toolName", "risk", "source", "action"],
      where: hourWhere,
      _sum: { calls: true, timed: true, withinTarget: true },
    }),
    db.insightHour.groupBy({ by: ["hour", "source"], where: hourWhere, _sum: { calls: true, timed: true, withinTarget: true } }),
    db.insightReviewerDay.groupBy({ by: ["agentId", "toolName", "risk", "bucket"], where: dayWhere, _sum: { calls: true } }),
    db.insightReviewerDay.groupBy({
      by: ["reviewer", "action", "bucket"],
      where: dayWhere,
      _sum: { calls: true, unopened: true, quick: true, streak: true },
    }),
  ]);
  return {
    outcomes: outcomes.map(({ _sum, ...key }) => ({
      ...key,
      calls: n(_sum.calls),
      timed: n(_sum.timed),
      withinTarget: n(_sum.withinTarget),
    })),
    hours: hours.map(({ _sum, ...key }) => ({ ...key, calls: n(_sum.calls), timed: n(_sum.timed), withinTarget: n(_sum.withinTarget) })),
    waits: waits.map(({ _sum, ...key }) => ({ ...key, calls: n(_sum.calls) })),
    reviewers: reviewers.map(({ _sum, ...key }) => ({
      ...key,
      calls: n(_sum.calls),
      unopened: n(_sum.unopened),
      quick: n(_sum.quick),
      streak: n(_sum.streak),
    })),
    signalsCounted: true,
  };
}

const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/**
 * The same facts from the calls' rows under a resource prefix: the calls that started waiting or
 * were decided in [from, to) (decisions counted by the hour they were made, as the rollups count
 * them), with the review targets in force now for "within target".
 */
export async function reviewFacts(db: Db, range: { from: Date; to: Date }, filters: Filters & { resourcePrefix: string }): Promise<Facts> {
  const common = {
    agentId: filters.agentId,
    toolName: filters.toolName,
    resourceId: { startsWith: filters.resourcePrefix },
  };
  const [arrived, decided, targets] = await Promise.all([
    db.callReview.findMany({ where: { ...common, waitingSince: { gte: range.from, lt: range.to } } }),
    db.callReview.findMany({ where: { ...common, risk: filters.risk, decidedAt: { gte: range.from, lt: range.to } } }),
    db.insightTarget.findMany(),
  ]);
  // LIKE ignores case on SQLite: a prefix is exact.
  const matches = (row: { resourceId: string | null }) => row.resourceId?.startsWith(filters.resourcePrefix) ?? false;
  const targetMs = new Map(targets.map((target) => [target.risk, target.minutes * 60_000]));
  const outcomes = new Map<string, OutcomeFact>();
  const hours = new Map<string, HourFact>();
  const waits = new Map<string, WaitFact>();
  const reviewers = new Map<string, ReviewerFact>();
  const add = <T extends { calls: number }>(map: Map<string, T>, key: T, counts: Partial<T>) => {
    const id = JSON.stringify(key);
    const row = map.get(id) ?? { ...key };
    for (const [field, value] of Object.entries(counts))
      (row as Record<string, number>)[field] = ((row as Record<string, number>)[field] ?? 0) + (value as number);
    map.set(id, row);
  };
  for (const call of arrived.filter(matches)) {
    // The risk a call arrived with is not kept on its row: arrivals under a risk filter count the decided ones' risk.
    if (filters.risk && call.risk !== filters.risk) continue;
    const key = { agentId: call.agentId, toolName: call.toolName, risk: call.risk ?? "unrated", source: "arrived", action: "wait" };
    add(outcomes, { ...key, calls: 0, timed: 0, withinTarget: 0 }, { calls: 1 });
    add(hours, { hour: hourOf(call.waitingSince!), source: "arrived", calls: 0, timed: 0, withinTarget: 0 }, { calls: 1 });
  }
  for (const call of decided.filter(matches)) {
    const risk = call.risk ?? "unrated";
    const waitMs = call.waitingSince ? Math.max(0, call.decidedAt!.getTime() - call.waitingSince.getTime()) : null;
    const timed = waitMs === null ? 0 : 1;
    const within = waitMs !== null && call.source !== "outside" && waitMs < (targetMs.get(risk) ?? 0) ? 1 : 0;
    const key = { agentId: call.agentId, toolName: call.toolName, risk, source: call.source!, action: call.action! };
    add(outcomes, { ...key, calls: 0, timed: 0, withinTarget: 0 }, { calls: 1, timed, withinTarget: within });
    add(
      hours,
      { hour: hourOf(call.decidedAt!), source: call.source!, calls: 0, timed: 0, withinTarget: 0 },
      { calls: 1, timed, withinTarget: within },
    );
    if (call.source !== "person") continue;
    const bucket = waitMs === null ? NOT_RECORDED_BUCKET : bucketOfWait(waitMs);
    add(waits, { agentId: call.agentId, toolName: call.toolName, risk, bucket, calls: 0 }, { calls: 1 });
    add(
      reviewers,
      { reviewer: call.decidedBy!, action: call.action!, bucket, calls: 0, unopened: 0, quick: 0, streak: 0 },
      { calls: 1, unopened: call.contextOpened ? 0 : 1 },
    );
  }
  return {
    outcomes: [...outcomes.values()],
    hours: [...hours.values()],
    waits: [...waits.values()],
    reviewers: [...reviewers.values()],
    signalsCounted: false,
  };
}
