/**
 * A rule replayed over the past: what it would have decided over the decisions of a period, and
 * where it disagrees with what was decided. The one replay both a rule's backtest (the admin's
 * "Backtest", POST /api/admin/rules/backtest) and the suggested rules (proposals.ts) count with, so
 * a suggestion's numbers are the backtest of its rule.
 *
 * How it counts, for each past decision of an approval call (past-decisions.ts) the rule matches
 * (on its own, enabled or not, whatever its place in the list; the same matcher as a waiting call,
 * match.ts), with the effect it would have had on it (effect.ts):
 * - People's decisions (approve or decline) are what was decided; with `include: "all"` so are the
 *   decisions of rules and reviewers' suggestions. Each counted one is `matched`, by effect.
 * - An approve or decline rule agrees when it would have done what was decided, else disagrees:
 *   each disagreement is listed with who decided, when and why. "Require approvals" and "ask"
 *   leave the call to people: counted by effect, never agreeing or disagreeing.
 * - The time saved is the sum of the waits (waiting → decided: call_reviews.waiting_since, as the
 *   insights count them) of the counted calls it would have approved or declined at once; a call
 *   whose wait was not recorded is counted apart.
 * - Decisions not counted (rules' and suggestions' when only people's count, and expiries, which
 *   decide nothing about the call) are reported apart: how many the rule matches, and disagreements.
 */
import type { Db } from "../db/client.ts";
import type { BacktestDisagreement, BacktestResult, BacktestSummary, KeptBacktest, ProposedRule } from "./dto.ts";
import { effectOn } from "./effect.ts";
import { compileRules, ruleMatches } from "./match.ts";
import { lastDays, readPastDecisions, whoDecided, type DecisionDetails, type PastDecision, type Period } from "./past-decisions.ts";
import type { Effect } from "./validations.ts";

export type Include = BacktestSummary["include"];
/** A rule as the replay takes it: saved or not, enabled or not; a reviewer's trusted rule with its end. */
export type ReplayedRule = ProposedRule & { expiresAt?: string | null };

export interface Replay {
  matched: number;
  wouldDecide: Record<Effect, number>;
  agreed: number;
  disagreed: number;
  others: BacktestSummary["others"];
  /** The counted decisions the rule would have approved or declined at once: whose waits it saves. */
  deciding: PastDecision[];
  /** Every counted decision it matches, as indexes into the decisions replayed over. */
  matchedIndexes: number[];
  /** Newest first. */
  disagreements: Array<{ decision: PastDecision; wouldDo: "approve" | "decline" }>;
}

/** When the rule would have looked at a past call: as it started waiting (a rule that had ended by then matches nothing). */
export const evaluatedAt = (decision: Pick<PastDecision, "waitingSince" | "decidedAt">): Date =>
  decision.waitingSince ?? decision.decidedAt;

/** The replay itself: pure, over decisions already read. */
export function replay(rule: ReplayedRule, decisions: readonly PastDecision[], include: Include = "people"): Replay {
  const [compiled] = compileRules([{ ...rule, enabled: true }]);
  const result: Replay = {
    matched: 0,
    wouldDecide: { approve: 0, decline: 0, require_approvals: 0, ask: 0 },
    agreed: 0,
    disagreed: 0,
    others: { rule: { matched: 0, disagreed: 0 }, suggestion: { matched: 0, disagreed: 0 }, expiry: { matched: 0 } },
    deciding: [],
    matchedIndexes: [],
    disagreements: [],
  };
  decisions.forEach((decision, index) => {
    if (!ruleMatches(compiled!, decision, evaluatedAt(decision))) return;
    if (decision.action === "expire") {
      result.others.expiry.matched++;
      return;
    }
    const effect = effectOn(rule, decision.kind);
    const decides = effect === "approve" || effect === "decline";
    const disagrees = decides && effect !== decision.action;
    if (decision.decidedBy !== "person" && include === "people") {
      const other = result.others[decision.decidedBy as "rule" | "suggestion"];
      other.matched++;
      if (disagrees) other.disagreed++;
      return;
    }
    result.matched++;
    result.wouldDecide[effect]++;
    result.matchedIndexes.push(index);
    if (!decides) return;
    result.deciding.push(decision);
    if (disagrees) {
      result.disagreed++;
      result.disagreements.push({ decision, wouldDo: effect });
    } else result.agreed++;
  });
  result.disagreements.sort((a, b) => b.decision.decidedAt.getTime() - a.decision.decidedAt.getTime());
  return result;
}

/** How long the call waited before it was decided, in milliseconds; null when its start was not recorded. */
export function waitOf(decision: Pick<PastDecision, "waitingSince" | "decidedAt">): number | null {
  return decision.waitingSince === null ? null : Math.max(0, decision.decidedAt.getTime() - decision.waitingSince.getTime());
}

/** The replay's numbers as reported, with the waits it saves. */
export function summarize(replayed: Replay, { days, period, include }: SummaryContext): BacktestSummary {
  let waitSavedMs = 0;
  let waitsUnknown = 0;
  for (const decision of replayed.deciding) {
    const wait = waitOf(decision);
    if (wait === null) waitsUnknown++;
    else waitSavedMs += wait;
  }
  return {
    days,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    include,
    matched: replayed.matched,
    wouldDecide: replayed.wouldDecide,
    agreed: replayed.agreed,
    disagreed: replayed.disagreed,
    waitSavedMs,
    waitsUnknown,
    others: replayed.others,
  };
}

export interface SummaryContext {
  days: number;
  period: Period;
  include: Include;
}

/** How many disagreements a kept backtest (a rule version's, a proposal's) lists; the count says how many there were. */
export const KEPT_DISAGREEMENTS = 50;

/** The summary and the first disagreements: what a proposal shows and a rule version keeps. */
export async function keptBacktest(db: Db, replayed: Replay, context: SummaryContext): Promise<KeptBacktest> {
  return {
    ...summarize(replayed, context),
    disagreements: await disagreementsOf(db, replayed.disagreements.slice(0, KEPT_DISAGREEMENTS)),
  };
}

/**
 * `rule` over the last `days` days: the decisions it could match read by index (past-decisions.ts),
 * replayed, and one page of its disagreements, newest first. Changes nothing.
 */
export async function backtestRule(
  db: Db,
  rule: ReplayedRule,
  { days, include = "people", page = 1, pageSize = 50, now = new Date() }: BacktestOptions,
): Promise<BacktestResult> {
  const period = lastDays(days, now);
  const replayed = replay(rule, await readPastDecisions(db, rule, period), include);
  const first = (page - 1) * pageSize;
  return {
    ...summarize(replayed, { days, period, include }),
    page,
    pageSize,
    disagreements: await disagreementsOf(db, replayed.disagreements.slice(first, first + pageSize)),
  };
}

export interface BacktestOptions {
  days: number;
  include?: Include;
  page?: number;
  pageSize?: number;
  now?: Date;
}

/** What the page shows of each disagreement: who decided what, when and why; the arguments cut short. */
async function disagreementsOf(db: Db, disagreements: Replay["disagreements"]): Promise<BacktestDisagreement[]> {
  const who = await whoDecided(
    db,
    disagreements.map(({ decision }) => decision),
  );
  return disagreements.map((disagreement) => disagreementOf(disagreement, who.get(disagreement.decision.id)));
}

function disagreementOf(
  { decision, wouldDo }: Replay["disagreements"][number],
  who: DecisionDetails = { runId: "", toolCallId: "", reviewer: "", reason: null },
): BacktestDisagreement {
  const args = JSON.stringify(decision.args ?? null) ?? "null";
  return {
    runId: who.runId,
    toolCallId: who.toolCallId,
    agentId: decision.agentId,
    toolName: decision.toolName,
    resourceId: decision.resourceId,
    decided: decision.action as "approve" | "decline",
    decidedBy: decision.decidedBy as BacktestDisagreement["decidedBy"],
    reviewer: who.reviewer,
    decidedAt: decision.decidedAt.toISOString(),
    reason: who.reason,
    wouldDo,
    args: args.length > 300 ? `${args.slice(0, 299)}…` : args,
  };
}

/** The backtest a rule created from a suggestion keeps with its first version: its replay over the last `days` days. */
export async function keptBacktestOf(db: Db, rule: ReplayedRule, days: number, now: Date = new Date()): Promise<KeptBacktest> {
  const period = lastDays(days, now);
  return keptBacktest(db, replay(rule, await readPastDecisions(db, rule, period)), { days, period, include: "people" });
}
