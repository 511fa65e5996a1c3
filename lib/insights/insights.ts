/**
 * The insights' panels, from the facts (facts.ts) of a period in the viewer's time zone. Every
 * number is a sum of counts kept exact in the decisions' own transactions; the times to decision
 * are ranges on the wait scale (wait-scale.ts). How each is counted is in docs/insights.md.
 */
import { getDb, type Db } from "../db/client.ts";
import {
  DECIDERS,
  type DayRow,
  type Decider,
  type InsightsDto,
  type OutcomeRow,
  type Outcomes,
  type ReviewerRow,
  type TimeToDecision,
} from "./dto.ts";
import { rollupFacts, type Facts, type OutcomeFact, type WaitFact } from "./facts.ts";
import { prefixFacts } from "./prefix-facts.ts";
import { datesOf, lastDays, periodOf, type Period } from "./period.ts";
import { DEFAULT_PERIOD_DAYS } from "./params.ts";
import type { InsightsQuery } from "./validations.ts";
import { percentileOf } from "./wait-scale.ts";

/** The rubber-stamp signals' settings, as the triggers of migration `insights` count them. */
export const QUICK_APPROVAL_SECONDS = 5;
export const STREAK_LENGTH = 10;

export function periodOfQuery(query: InsightsQuery, timeZone: string, now: Date = new Date()): Period {
  if (query.from && query.to) return periodOf(query.from, query.to, timeZone, now);
  return lastDays(Number(query.period ?? DEFAULT_PERIOD_DAYS), timeZone, now);
}

export async function readInsights(
  query: InsightsQuery,
  viewer: { timeZone: string; seesNames: boolean },
  options: { db?: Db; now?: Date } = {},
): Promise<InsightsDto> {
  const db = options.db ?? (await getDb());
  const timeZone = query.timeZone ?? viewer.timeZone;
  const period = periodOfQuery(query, timeZone, options.now);
  const filters = { agentId: query.agentId, toolName: query.toolName, risk: query.risk };
  const facts = query.resourcePrefix
    ? await prefixFacts(db, period, { ...filters, resourcePrefix: query.resourcePrefix })
    : await rollupFacts(db, period, filters);
  const targets = new Map((await db.insightTarget.findMany()).map((target) => [target.risk, target.minutes]));
  const decisions = facts.outcomes.filter((fact) => fact.source !== "arrived");
  return {
    period: {
      firstDay: period.firstDay,
      lastDay: period.lastDay,
      from: period.from.toISOString(),
      to: period.to.toISOString(),
      timeZone,
      ...utcDaysOf(period),
    },
    filters: { ...filters, resourcePrefix: query.resourcePrefix },
    waited: sum(facts.outcomes.filter((fact) => fact.source === "arrived").map((fact) => fact.calls)),
    outcomes: outcomesOf(decisions),
    byAgent: rowsBy(
      decisions,
      (fact) => fact.agentId,
      (agentId) => ({ agentId, toolName: "" }),
    ),
    byTool: rowsBy(decisions, (fact) => `${fact.agentId}\u0000${fact.toolName}`, splitToolKey),
    timeToDecision: {
      ...timeToDecision(decisions, facts.waits),
      byRisk: [...new Set(facts.waits.map((fact) => fact.risk).concat(decisions.filter(isPerson).map((fact) => fact.risk)))]
        .sort()
        .map((risk) => ({
          risk,
          targetMinutes: targets.get(risk) ?? null,
          ...timeToDecision(
            decisions.filter((fact) => fact.risk === risk),
            facts.waits.filter((fact) => fact.risk === risk),
          ),
        })),
      byTool: [...new Set(decisions.filter(isPerson).map((fact) => `${fact.agentId}\u0000${fact.toolName}`))].sort().map((key) => {
        const { agentId, toolName } = splitToolKey(key);
        const same = (fact: { agentId: string; toolName: string }) => fact.agentId === agentId && fact.toolName === toolName;
        return { agentId, toolName, ...timeToDecision(decisions.filter(same), facts.waits.filter(same)) };
      }),
    },
    reviewers: reviewersOf(facts, viewer.seesNames),
    anonymous: !viewer.seesNames,
    days: daysOf(facts, period),
    signals: { quickSeconds: QUICK_APPROVAL_SECONDS, streakLength: STREAK_LENGTH },
    signalsCounted: facts.signalsCounted,
  };
}

function splitToolKey(key: string): { agentId: string; toolName: string } {
  const [agentId = "", toolName = ""] = key.split("\u0000");
  return { agentId, toolName };
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const isPerson = (fact: { source: string }) => fact.source === "person";

function outcomesOf(decisions: OutcomeFact[]): Outcomes {
  const count = (test: (fact: OutcomeFact) => boolean) => sum(decisions.filter(test).map((fact) => fact.calls));
  return {
    decided: count(() => true),
    by: Object.fromEntries(DECIDERS.map((decider) => [decider, count((fact) => fact.source === decider)])) as Record<Decider, number>,
    approved: count((fact) => fact.action === "approve"),
    declined: count((fact) => fact.action === "decline"),
    resumed: count((fact) => fact.action === "resume"),
    expired: count((fact) => fact.action === "expire"),
  };
}

function rowsBy(
  decisions: OutcomeFact[],
  keyOf: (fact: OutcomeFact) => string,
  identity: (key: string) => { agentId: string; toolName: string },
): OutcomeRow[] {
  const groups = groupBy(decisions, keyOf);
  return [...groups.entries()]
    .map(([key, facts]) => {
      const outcomes = outcomesOf(facts);
      return {
        ...identity(key),
        ...outcomes,
        approvalRate: share(outcomes.approved, outcomes.decided),
        declineRate: share(outcomes.declined, outcomes.decided),
        expiryRate: share(outcomes.expired, outcomes.decided),
      };
    })
    .sort((a, b) => b.decided - a.decided || a.agentId.localeCompare(b.agentId) || a.toolName.localeCompare(b.toolName));
}

/** People's decisions: how many, how many within target, and the wait's percentiles. */
function timeToDecision(decisions: OutcomeFact[], waits: WaitFact[]): TimeToDecision {
  const people = decisions.filter(isPerson);
  const timed = sum(people.map((fact) => fact.timed));
  const withinTarget = sum(people.map((fact) => fact.withinTarget));
  const buckets = new Map<number, number>();
  for (const fact of waits) buckets.set(fact.bucket, (buckets.get(fact.bucket) ?? 0) + fact.calls);
  return {
    decisions: sum(people.map((fact) => fact.calls)),
    timed,
    withinTarget,
    withinTargetShare: share(withinTarget, timed),
    p50: percentileOf(buckets, 50),
    p90: percentileOf(buckets, 90),
    p99: percentileOf(buckets, 99),
  };
}

function reviewersOf(facts: Facts, seesNames: boolean): ReviewerRow[] {
  const waits = groupBy(facts.reviewerWaits, (fact) => fact.reviewer);
  const rows = facts.reviewers.map((fact) => {
    const buckets = new Map<number, number>();
    for (const wait of waits.get(fact.reviewer) ?? []) buckets.set(wait.bucket, (buckets.get(wait.bucket) ?? 0) + wait.calls);
    return {
      reviewer: fact.reviewer,
      label: fact.reviewer,
      decisions: fact.calls,
      approved: fact.approved,
      approvedShare: share(fact.approved, fact.calls),
      medianWait: percentileOf(buckets, 50),
      withoutContext: fact.unopened,
      withoutContextShare: share(fact.unopened, fact.calls),
      quickApprovals: fact.quick,
      streakApprovals: fact.streak,
    };
  });
  rows.sort((a, b) => b.decisions - a.decisions || a.reviewer.localeCompare(b.reviewer));
  return seesNames ? rows : rows.map((row, index) => ({ ...row, reviewer: null, label: `Reviewer ${index + 1}` }));
}

/** Per local day: calls that started waiting, decisions, and the overdue (people's after target, and expiries). */
function daysOf(facts: Facts, period: Period): DayRow[] {
  const days = new Map(datesOf(period).map((date) => [date, { date, waited: 0, decided: 0, overdue: 0 }]));
  for (const fact of facts.days) {
    const day = days.get(fact.date);
    if (!day) continue;
    if (fact.source === "arrived") day.waited += fact.calls;
    else day.decided += fact.calls;
    if (fact.source === "person") day.overdue += fact.timed - fact.withinTarget;
    if (fact.source === "expiry") day.overdue += fact.calls;
  }
  return [...days.values()];
}

/** The UTC days the period touches, as [from, to) instants (to: the next UTC midnight, or now). */
function utcDaysOf(period: Period): { utcDaysFrom: string; utcDaysTo: string } {
  const day = 86_400_000;
  const from = Math.floor(period.from.getTime() / day) * day;
  const end = Math.ceil(period.to.getTime() / day) * day;
  return { utcDaysFrom: new Date(from).toISOString(), utcDaysTo: new Date(Math.min(end, Date.now())).toISOString() };
}
