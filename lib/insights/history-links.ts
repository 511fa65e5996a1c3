/**
 * Where a number of /insights leads: the history (/history, lib/search-params.ts `auditQuery`)
 * filtered to what the number counts, as near as its filters go. Every count's link is built here.
 * The history filters by agent, tool, reviewer, outcome and instants (`to` inclusive); it has no
 * resource prefix and no risk, so under either of those filters no number links (null). Pure.
 */
import type { AUDIT_OUTCOMES } from "../list-params.ts";
import type { Decider, InsightsDto } from "./dto.ts";
import { addDays, startOfLocalDate } from "./period.ts";

type Outcome = (typeof AUDIT_OUTCOMES)[number];

export interface HistoryScope {
  agentId?: string;
  toolName?: string;
  reviewer?: string;
  outcome?: Outcome;
  /** [from, to) as ISO instants. */
  from: string;
  to: string;
}

/** What the history records for a call each decider ended: carried out, expired, or seen decided outside. */
export const OUTCOME_OF_DECIDER: Record<Decider, Outcome> = {
  person: "applied",
  rule: "applied",
  suggestion: "applied",
  expiry: "expired",
  outside: "decided-outside",
};

/** The history's URL for `scope` within the insights' own filters; null when the history cannot narrow to them. */
export function historyHref(insights: Pick<InsightsDto, "filters">, scope: HistoryScope): string | null {
  const { filters } = insights;
  if (filters.resourcePrefix || filters.risk) return null;
  const params = new URLSearchParams();
  const set = (key: string, value: string | undefined) => {
    if (value) params.set(key, value);
  };
  set("agentId", scope.agentId ?? filters.agentId);
  set("toolName", scope.toolName ?? filters.toolName);
  set("reviewer", scope.reviewer);
  set("outcome", scope.outcome);
  set("from", scope.from);
  // The history's `to` is inclusive: the last millisecond before the end.
  set("to", new Date(Date.parse(scope.to) - 1).toISOString());
  return `/history?${params}`;
}

/** The whole period: what the panels count (calls by the hour they were decided). */
export function periodScope(insights: Pick<InsightsDto, "period">): Pick<HistoryScope, "from" | "to"> {
  return { from: insights.period.from, to: insights.period.to };
}

/** The UTC days the reviewers' figures count. */
export function reviewerScope(insights: Pick<InsightsDto, "period">): Pick<HistoryScope, "from" | "to"> {
  return { from: insights.period.utcDaysFrom, to: insights.period.utcDaysTo };
}

/** One local day of the period, in its time zone (the period's first and last are cut to it). */
export function dayScope(insights: Pick<InsightsDto, "period">, date: string): Pick<HistoryScope, "from" | "to"> {
  const { period } = insights;
  const from = startOfLocalDate(date, period.timeZone).toISOString();
  const to = startOfLocalDate(addDays(date, 1), period.timeZone).toISOString();
  return { from: from < period.from ? period.from : from, to: to > period.to ? period.to : to };
}
