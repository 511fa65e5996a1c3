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
}

/**
 * "Approve and trust" (lib/rules/trust.ts): the approval's outcome, and the rule it made; null when
 * the approval only counted toward several, or the rule could not be written (the server log says why).
 */
export type TrustOutcome = DecisionOutcome & { trustedRule: RuleDefinition | null };
