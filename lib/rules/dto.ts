/** What the rules' routes and page show. Browser-safe (types only). */
import type { DecisionOutcome } from "../decisions/types.ts";
import type { CallKind, Effect, RuleDefinition } from "./validations.ts";

export type { RuleDefinition };

export interface DryRunCall {
  runId: string;
  toolCallId: string;
  agentId: string;
  toolName: string | null;
  resourceId: string | null;
  kind: CallKind;
  effect: Effect;
  /** The arguments as JSON, cut at 300 characters. */
  args: string;
}

export interface DryRunResult {
  /** Every call waiting now. */
  waiting: number;
  /** Of those, how many the rule matches, by what it would do to each. */
  counts: Record<Effect, number>;
  matched: number;
  page: number;
  pageSize: number;
  /** The matching calls on this page, in the order above. */
  calls: DryRunCall[];
}

export interface RuleVersionDto {
  version: number;
  changedBy: string;
  changedAt: string;
  change: string;
  rule: RuleDefinition;
  /** The backtest kept with this version (a rule created from a suggestion: its first version), or null. */
  backtest: KeptBacktest | null;
}

/** Who made a past decision (lib/rules/past-decisions.ts). */
export type PastDecider = "person" | "rule" | "suggestion" | "expiry";

/** A past decision the rule would have gone against: approved where it was declined, or the reverse. */
export interface BacktestDisagreement {
  runId: string;
  toolCallId: string;
  agentId: string;
  toolName: string | null;
  resourceId: string | null;
  /** What was decided, and by whom. */
  decided: "approve" | "decline";
  decidedBy: Exclude<PastDecider, "expiry">;
  reviewer: string;
  decidedAt: string;
  reason: string | null;
  /** What the rule would have done. */
  wouldDo: "approve" | "decline";
  /** The arguments as JSON, cut at 300 characters. */
  args: string;
}

/** What a rule would have decided over the decisions of a period, and where it disagrees with them (lib/rules/backtest.ts). */
export interface BacktestSummary {
  days: number;
  from: string;
  to: string;
  /** Whose decisions count as what was decided: people's (the default), or also rules' and suggestions'. */
  include: "people" | "all";
  /** The counted decisions the rule matches, by what it would have done to each. */
  matched: number;
  wouldDecide: Record<Effect, number>;
  /** Of the ones it would have approved or declined: the same as was decided, or not. */
  agreed: number;
  disagreed: number;
  /** The waits of the calls it would have approved or declined at once, summed; those whose wait is not known are counted apart. */
  waitSavedMs: number;
  waitsUnknown: number;
  /** Decisions not counted as what was decided, that the rule matches: by rules and suggestions (unless counted), and expiries. */
  others: {
    rule: { matched: number; disagreed: number };
    suggestion: { matched: number; disagreed: number };
    expiry: { matched: number };
  };
}

export interface BacktestResult extends BacktestSummary {
  page: number;
  pageSize: number;
  /** The disagreements on this page, newest first. */
  disagreements: BacktestDisagreement[];
}

/** A backtest as kept with a rule version (and shown with a proposal): the summary and its first disagreements. */
export interface KeptBacktest extends BacktestSummary {
  disagreements: BacktestDisagreement[];
}

/** A rule as suggested: not saved yet, so without id, place or version (created disabled), and without an end. */
export type ProposedRule = Omit<RuleDefinition, "id" | "position" | "version" | "expiresAt" | "trustedBy">;

/** A suggested rule with its backtest over the period it was found in (lib/rules/proposals.ts). */
export interface RuleProposal {
  /** Stable for the same rule: what the page keys it by. */
  key: string;
  rule: ProposedRule;
  backtest: KeptBacktest;
}

export interface ProposalsResult {
  days: number;
  from: string;
  to: string;
  minCalls: number;
  maxWrongShare: number;
  /** The approval calls people decided in the period (within the filters asked for): what was looked at. */
  considered: number;
  /** How many rules are suggested; `proposals` is one page of them. */
  total: number;
  page: number;
  pageSize: number;
  proposals: RuleProposal[];
  /** Agent and tool whose approval is never suggested: a rule rates their calls high or critical. */
  ratedHigh: Array<{ agentId: string; toolName: string }>;
}

/**
 * "Approve and trust" (lib/rules/trust.ts): the approval's outcome, and the rule it made; null when
 * the approval only counted toward several, or the rule could not be written (the server log says why).
 */
export type TrustOutcome = DecisionOutcome & { trustedRule: RuleDefinition | null };
