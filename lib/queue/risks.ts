/**
 * Each shown call's risk in the review queue: the risk of the rule version that matched it when it
 * started waiting (call_rule_matches, lib/rules/auto-decide.ts); a call no rule matched has none.
 */
import type { Db } from "../db/client.ts";
import { isRisk, type Risk } from "../risk.ts";

type RiskCarrier = { runId: string; toolCalls: Array<{ toolCallId?: string; risk?: Risk }> };

/** `runs` with `risk` set on each call that has one. */
export async function withRisks<Run extends RiskCarrier>(db: Db, runs: Run[]): Promise<Run[]> {
  if (runs.length === 0) return runs;
  const matches = await db.callRuleMatch.findMany({
    where: { runId: { in: runs.map((run) => run.runId) }, risk: { not: null } },
    select: { runId: true, toolCallId: true, risk: true },
  });
  if (matches.length === 0) return runs;
  const risks = new Map(
    matches.filter((match) => isRisk(match.risk)).map((match) => [`${match.runId}\u0000${match.toolCallId}`, match.risk as Risk]),
  );
  return runs.map((run) => ({
    ...run,
    toolCalls: run.toolCalls.map((call) => {
      const risk = call.toolCallId ? risks.get(`${run.runId}\u0000${call.toolCallId}`) : undefined;
      return risk ? { ...call, risk } : call;
    }),
  }));
}
