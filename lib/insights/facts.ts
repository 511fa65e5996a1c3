/**
 * The insights' counts, read two ways into the same shapes: from the rollups the triggers keep
 * (every request without a resource filter: sums of small indexed rows, never the history), or,
 * under a resource prefix, from the calls' own rows (prefix-facts.ts), since a rollup cannot know
 * every prefix. lib/insights/insights.ts turns either into the panels.
 */
import type { Db } from "../db/client.ts";
import { planDays } from "./hours.ts";
import type { Period } from "./period.ts";

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
