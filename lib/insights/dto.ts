/** What GET /api/insights answers and /insights shows. Browser-safe (types only). */
import type { WaitPercentile } from "./wait-scale.ts";

export const DECIDERS = ["person", "rule", "suggestion", "expiry", "outside"] as const;
export type Decider = (typeof DECIDERS)[number];

export interface InsightsPeriod {
  firstDay: string;
  lastDay: string;
  /** [from, to) as ISO instants. */
  from: string;
  to: string;
  timeZone: string;
  /** The UTC days the per-reviewer figures and the times to decision count, every day the period touches, as [from, to) instants. */
  utcDaysFrom: string;
  utcDaysTo: string;
}

export interface Outcomes {
  /** Calls decided in the period, by who decided. */
  decided: number;
  by: Record<Decider, number>;
  approved: number;
  declined: number;
  resumed: number;
  expired: number;
}

export interface OutcomeRow extends Outcomes {
  agentId: string;
  /** "" for the agent's row. */
  toolName: string;
  approvalRate: number | null;
  declineRate: number | null;
  expiryRate: number | null;
}

export interface TimeToDecision {
  /** People's decisions counted, and of them those whose wait was recorded. */
  decisions: number;
  timed: number;
  withinTarget: number;
  /** withinTarget / timed, null when none was timed. */
  withinTargetShare: number | null;
  p50: WaitPercentile | null;
  p90: WaitPercentile | null;
  p99: WaitPercentile | null;
}

export interface ReviewerRow {
  /** The reviewer's email; null for a viewer who may not see names (support). */
  reviewer: string | null;
  /** "Reviewer 1", … for a viewer who may not see names; the email otherwise. */
  label: string;
  decisions: number;
  approved: number;
  approvedShare: number | null;
  /** The median time from waiting to their decision, as a range, over all their decisions in the UTC days (not narrowed by the filters); null when none was recorded. */
  medianWait: WaitPercentile | null;
  /** Decided without having opened the call's context. */
  withoutContext: number;
  withoutContextShare: number | null;
  /** Rubber-stamp signals: approvals within a few seconds of opening, context never opened; approvals in a run of identical ones. */
  quickApprovals: number;
  streakApprovals: number;
}

export interface DayRow {
  date: string;
  /** Calls that started waiting that day. */
  waited: number;
  decided: number;
  /** People's decisions after their target, and expiries. */
  overdue: number;
}

export interface InsightsDto {
  period: InsightsPeriod;
  filters: { agentId?: string; toolName?: string; resourcePrefix?: string; risk?: string };
  /** Calls that started waiting in the period. */
  waited: number;
  outcomes: Outcomes;
  byAgent: OutcomeRow[];
  byTool: OutcomeRow[];
  timeToDecision: TimeToDecision & {
    byRisk: (TimeToDecision & { risk: string; targetMinutes: number | null })[];
    byTool: (TimeToDecision & { agentId: string; toolName: string })[];
  };
  reviewers: ReviewerRow[];
  /** Whether reviewer names are left out (support). */
  anonymous: boolean;
  days: DayRow[];
  /** Settings the signals use. */
  signals: { quickSeconds: number; streakLength: number };
  /**
   * Whether the reviewers' quick and streak approvals were counted: false under a resource prefix,
   * where they read 0 (they are kept per reviewer only in the rollups, not per resource).
   */
  signalsCounted: boolean;
}
