/**
 * Rules decide, exactly once. When a call starts waiting, the console instance that claims it
 * (lib/events/waiting.ts: the claim is a delete, so exactly one instance does) evaluates the enabled
 * rules in order and writes which one matched in call_rule_matches, in the claim's own transaction:
 * a call is never evaluated twice. Then, outside that transaction, an approve or decline goes
 * through `decide` like a person's (first-wins record, carry-out, recovery, history), as the reviewer
 * "rule '<name>' (version N)" with the rule's id and version on the decision row. A reviewer
 * clicking at the same moment either wins (the rule is told it was decided) or is told the rule did.
 *
 * Before the rules, a reviewer's suggestion (lib/suggestions/claim.ts, "decline and suggest"): the
 * agent's next call of the suggested tool in that thread uses it up, in the same transaction, and is
 * approved the same way (no rule on the match; reviewer "suggestion by <who>") when its arguments
 * equal the suggestion. Other arguments go on to the rules.
 *
 * A rule only approves or declines a call that needs approval: an input request matched by such a
 * rule is recorded as "ask" (a person answers it). "ask" and "require_approvals" stop later rules
 * and leave the call to people; under "require_approvals" it is carried out once N different
 * people approved it (lib/decisions/approvals.ts reads N from the matched rule version).
 */
import { sqltag as sql } from "@prisma/client/runtime/client";
import { executeStatement } from "@agent-approvals/mastra-store";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { decide } from "../decisions/decide.ts";
import { DecisionError } from "../decisions/types.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import { decideAsSuggested, prepareSuggestionPlans, type SuggestionPlan } from "../suggestions/claim.ts";
import { useSuggestion, type SuggestionWriter } from "../suggestions/store.ts";
import { compileRules, firstMatch, isLive, type RuleCall } from "./match.ts";
import { effectOn } from "./effect.ts";
import { findRuleVersion, listRules, ruleReviewer } from "./store.ts";
import type { RuleDefinition } from "./validations.ts";

/** A claimed call, as lib/events/waiting.ts has it. */
export interface ClaimedCall {
  runId: string;
  toolCallId: string;
  agentId: string;
  workflowName: string;
  resourceId: string | null;
  toolName: string | null;
}

export type MatchWriter = Pick<Db, "callRuleMatch">;
/** Writes, inside the claim's transaction, which rule (or suggestion) matched one claimed call. */
export type ClaimStep = (tx: MatchWriter & SuggestionWriter, call: ClaimedCall) => Promise<void>;

/** How long an unsettled approve/decline match is left to the instance that wrote it before another takes it over. */
export const STALE_MATCH_MS = 60_000;

/**
 * Prepares the claim of `calls`: reads the enabled rules, the open suggestions and each call's
 * arguments (from the store's kept snapshot) before the claim's transaction; null when no rule is
 * enabled and no suggestion open (nothing to record).
 */
export async function prepareRuleMatches(calls: ClaimedCall[], databaseUrl: string = databaseUrlFromEnv()): Promise<ClaimStep | null> {
  const db = await getDb(databaseUrl);
  // Judged as of now: a trusted rule that has ended (lib/rules/trust.ts) takes part no more.
  const now = new Date();
  const rules = compileRules((await listRules(db, { enabledOnly: true })).filter((rule) => isLive(rule, now)));
  const suggestions = await prepareSuggestionPlans(
    db,
    calls.map((call) => call.agentId),
  );
  if (rules.length === 0 && !suggestions) return null;
  const found = new Map<string, { rule: RuleDefinition | null; effect: string | null; suggestion: SuggestionPlan | null }>();
  for (const call of calls) {
    const run = await findSuspendedRun(call.runId, databaseUrl);
    const pending = run?.toolCalls.find((candidate) => candidate.toolCallId === call.toolCallId);
    if (!run || !pending) continue; // decided or gone already: nothing to evaluate
    const ruleCall: RuleCall = {
      agentId: call.agentId,
      workflowName: call.workflowName,
      toolName: call.toolName,
      resourceId: call.resourceId,
      kind: pending.requiresApproval ? "approval" : "input",
      args: pending.args,
    };
    const rule = firstMatch(rules, ruleCall, now);
    const suggestion = suggestions?.(call, run, pending) ?? null;
    found.set(`${call.runId}\u0000${call.toolCallId}`, { rule, effect: rule ? effectOn(rule, ruleCall.kind) : null, suggestion });
  }
  return async (tx, call) => {
    const match = found.get(`${call.runId}\u0000${call.toolCallId}`);
    if (!match) return;
    // A suggestion comes first; used up either way, it decides only a call with its arguments.
    if (match.suggestion && (await useSuggestion(tx, match.suggestion.id, call, match.suggestion.outcome))) {
      if (match.suggestion.outcome === "approved") {
        if (await writeMatch(tx, call, null, "approve")) ownMatches.add(keyOf(call));
        return;
      }
    }
    if (rules.length === 0) return; // only suggestions were open: nothing for the rules to record
    if (await writeMatch(tx, call, match.rule, match.effect)) ownMatches.add(keyOf(call));
  };
}

/** Records a match unless the call already has one (an admin applied a rule to it first). */
export async function writeMatch(
  tx: MatchWriter,
  call: Pick<ClaimedCall, "runId" | "toolCallId">,
  rule: RuleDefinition | null,
  effect: string | null,
) {
  const key = { runId: call.runId, toolCallId: call.toolCallId };
  if (await tx.callRuleMatch.findUnique({ where: { runId_toolCallId: key } })) return false;
  await tx.callRuleMatch.create({
    data: { ...key, ruleId: rule?.id ?? null, ruleVersion: rule?.version ?? null, effect, risk: rule?.risk ?? null, matchedAt: new Date() },
  });
  return true;
}

/**
 * Records that a rule matched the call, replacing what was recorded when it started waiting (an admin
 * applying the rule to waiting calls, apply.ts), unsettled. One INSERT … ON CONFLICT, atomic on its
 * own: two admins applying at once both write it, where a delete then an insert in each one's
 * transaction had one insert fail on the other's row (PostgreSQL: a unique violation, a 500).
 */
export async function replaceMatch(db: Db, match: MatchRow): Promise<void> {
  await executeStatement(
    db,
    sql`INSERT INTO call_rule_matches (run_id, tool_call_id, rule_id, rule_version, effect, risk, matched_at, settled_at)
    VALUES (${match.runId}, ${match.toolCallId}, ${match.ruleId}, ${match.ruleVersion}, ${match.effect}, ${match.risk}, ${match.matchedAt}, NULL)
    ON CONFLICT (run_id, tool_call_id) DO UPDATE SET rule_id = excluded.rule_id, rule_version = excluded.rule_version,
      effect = excluded.effect, risk = excluded.risk, matched_at = excluded.matched_at, settled_at = NULL`,
  );
}

export interface MatchRow {
  runId: string;
  toolCallId: string;
  ruleId: string | null;
  ruleVersion: number | null;
  effect: string | null;
  risk: string | null;
  matchedAt: Date;
}

/** The matches this process wrote and has not yet decided (the instance that claims a call decides it). */
const ownMatches = new Set<string>();
const keyOf = (call: { runId: string; toolCallId: string }) => `${call.runId}\u0000${call.toolCallId}`;

/**
 * Carries out the approve/decline matches not yet settled: the ones this process just wrote, and
 * any older than STALE_MATCH_MS that a stopped instance left. Each is taken by one conditional
 * update of its matchedAt (a lease: one instance decides it), decided as the rule's version said,
 * then settled. Returns how many the rules decided.
 */
export async function decideRuleMatches(databaseUrl: string = databaseUrlFromEnv()): Promise<number> {
  const db = await getDb(databaseUrl);
  const now = Date.now();
  const due = await db.callRuleMatch.findMany({
    where: { settledAt: null, effect: { in: ["approve", "decline"] } },
    orderBy: { matchedAt: "asc" },
    take: 200,
  });
  let decided = 0;
  for (const match of due) {
    const own = ownMatches.delete(keyOf(match));
    if (!own && match.matchedAt.getTime() > now - STALE_MATCH_MS) continue; // another instance's, being decided
    const key = { runId: match.runId, toolCallId: match.toolCallId };
    const taken = await db.callRuleMatch.updateMany({
      where: { ...key, settledAt: null, matchedAt: match.matchedAt },
      data: { matchedAt: new Date() },
    });
    if (taken.count === 0) continue;
    if (await decideByRule(db, match, databaseUrl)) decided++;
    await db.callRuleMatch.updateMany({ where: key, data: { settledAt: new Date() } });
  }
  return decided;
}

/** Decides one matched call as the match's rule version says; false when somebody else decided first (or it is gone). */
export async function decideByRule(
  db: Db,
  match: { runId: string; toolCallId: string; ruleId: string | null; ruleVersion: number | null; effect: string | null },
  databaseUrl: string,
): Promise<boolean> {
  // An approval with no rule is a suggestion's (lib/suggestions/claim.ts).
  if (!match.ruleId && match.effect === "approve") return decideAsSuggested(db, match, databaseUrl);
  const rule = match.ruleId && match.ruleVersion ? await findRuleVersion(db, match.ruleId, match.ruleVersion) : null;
  if (!rule) return false;
  const target = { runId: match.runId, toolCallId: match.toolCallId };
  try {
    await decide(
      match.effect === "decline"
        ? { action: "decline", reason: rule.reason ?? `declined by ${ruleReviewer(rule)}`, ...target }
        : { action: "approve", ...target },
      {
        reviewer: ruleReviewer(rule),
        asAssignee: false,
        databaseUrl,
        rule: { id: rule.id, version: rule.version },
      },
    );
    return true;
  } catch (error) {
    // Somebody decided first, the call is gone, or the agent failed (released: a person decides).
    if (error instanceof DecisionError) return false;
    throw error;
  }
}
