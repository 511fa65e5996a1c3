/**
 * An admin applies a rule to the calls already waiting (/api/admin/rules/<id>/apply, or "apply to
 * calls already waiting" when enabling it on /admin/rules): every waiting call the rule's current
 * version matches and would approve or decline is recorded as matched by it (replacing what was
 * recorded when the call started waiting) and decided through `decide`, first wins, like any other.
 * The only way a call is evaluated again after it started waiting.
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { decideByRule, replaceMatch } from "./auto-decide.ts";
import { effectOn } from "./effect.ts";
import { compileRules, ruleMatches } from "./match.ts";
import { findRule } from "./store.ts";
import { waitingCalls } from "./waiting-calls.ts";

/** At most this many calls per request: the answer says whether more are left (apply again). */
export const APPLY_BATCH = 500;

export async function applyRuleToWaitingCalls(
  ruleId: string,
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<{ ruleId: string; version: number; matched: number; decided: number; more: boolean }> {
  const db = await getDb(databaseUrl);
  const rule = await findRule(db, ruleId);
  const [compiled] = compileRules([{ ...rule, enabled: true }]);
  const targets: { runId: string; toolCallId: string; effect: "approve" | "decline" }[] = [];
  let more = false;
  const now = new Date(); // a trusted rule that has ended applies to nothing
  for await (const call of waitingCalls(db, rule.agentId)) {
    if (!ruleMatches(compiled!, call, now)) continue;
    const effect = effectOn(rule, call.kind);
    if (effect !== "approve" && effect !== "decline") continue;
    if (targets.length === APPLY_BATCH) {
      more = true;
      break;
    }
    targets.push({ runId: call.runId, toolCallId: call.toolCallId, effect });
  }
  let decided = 0;
  for (const target of targets) {
    const key = { runId: target.runId, toolCallId: target.toolCallId };
    const match = { ...key, ruleId: rule.id, ruleVersion: rule.version, effect: target.effect, risk: rule.risk, matchedAt: new Date() };
    await replaceMatch(db, match);
    // Another request applying at the same moment decides it first: this one is told so and does not count it.
    if (await decideByRule(db, match, databaseUrl)) decided++;
    await db.callRuleMatch.updateMany({ where: key, data: { settledAt: new Date() } });
  }
  return { ruleId: rule.id, version: rule.version, matched: targets.length, decided, more };
}
