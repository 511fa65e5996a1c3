/**
 * A replay of a rule over the past written again for the tests, apart from lib/rules: the decisions
 * read with the Prisma client from the tables as the product wrote them (decisions, their `recorded`
 * audit rows for the arguments, the insights' call_reviews rows for when each call started waiting),
 * and the few conditions suggested rules use (equals, in, <=, >=, <,
 * >) checked by hand, not by the matcher.
 */
import { getDb } from "../../lib/db/client.ts";
import type { ProposedRule } from "../../lib/rules/dto.ts";

export interface HandDecision {
  runId: string;
  toolCallId: string;
  agentId: string;
  toolName: string | null;
  resourceId: string | null;
  action: string;
  byRule: boolean;
  reviewer: string;
  reason: string | null;
  decidedAt: Date;
  args: Record<string, unknown> | undefined;
  waitingSince: Date | undefined;
}

export async function decisionsByHand(databaseUrl: string): Promise<HandDecision[]> {
  const db = await getDb(databaseUrl);
  const [decisions, recorded, reviews] = await Promise.all([
    db.toolCallDecision.findMany({ where: { state: { not: "released" } } }),
    db.auditEvent.findMany({ where: { outcome: "recorded" } }),
    db.callReview.findMany(),
  ]);
  const argsOf = new Map(recorded.map((row) => [row.decisionId, row.args]));
  const waitingSince = new Map(reviews.map((review) => [`${review.runId}/${review.toolCallId}`, review.waitingSince ?? undefined]));
  return decisions.map((decision) => {
    const key = `${decision.runId}/${decision.toolCallId}`;
    const args = argsOf.get(decision.id);
    return {
      runId: decision.runId,
      toolCallId: decision.toolCallId,
      agentId: decision.agentId,
      toolName: decision.toolName,
      resourceId: decision.resourceId,
      action: decision.action,
      byRule: decision.ruleId !== null,
      reviewer: decision.reviewer,
      reason: decision.reason,
      decidedAt: decision.decidedAt,
      args: args ? (JSON.parse(args) as Record<string, unknown>) : undefined,
      waitingSince: waitingSince.get(key),
    };
  });
}

function holds(rule: ProposedRule, decision: HandDecision): boolean {
  if (rule.agentId !== null && rule.agentId !== decision.agentId) return false;
  if (rule.toolName !== null && rule.toolName !== decision.toolName) return false;
  if (rule.resource !== null) {
    if (decision.resourceId === null) return false;
    if (rule.resourceMatch === "prefix" ? !decision.resourceId.startsWith(rule.resource) : decision.resourceId !== rule.resource)
      return false;
  }
  if (rule.callKind === "approval" && decision.args === undefined) return false;
  return rule.conditions.every(({ path, op, value }) => {
    const actual = decision.args?.[path];
    if (op === "equals") return actual === value;
    if (op === "in") return (value as unknown[]).includes(actual);
    if (typeof actual !== "number" || typeof value !== "number") throw new Error(`by hand: ${op} on ${path} not a number`);
    return op === "<=" ? actual <= value : op === ">=" ? actual >= value : op === "<" ? actual < value : actual > value;
  });
}

/** What the rule would have decided over people's decisions of the last `days` days before `now`, counted by hand. */
export function replayByHand(rule: ProposedRule, decisions: HandDecision[], days: number, now: Date) {
  const from = now.getTime() - days * 86_400_000;
  const inPeriod = decisions.filter(
    (decision) => decision.decidedAt.getTime() >= from && decision.decidedAt <= now && ["approve", "decline"].includes(decision.action),
  );
  const matched = inPeriod.filter((decision) => holds(rule, decision));
  const people = matched.filter((decision) => !decision.byRule);
  const disagreeing = people.filter((decision) => decision.action !== rule.effect);
  const waits = people.filter((decision) => decision.waitingSince);
  return {
    matched: people.length,
    agreed: people.length - disagreeing.length,
    disagreed: disagreeing.length,
    waitSavedMs: waits.reduce((sum, decision) => sum + decision.decidedAt.getTime() - decision.waitingSince!.getTime(), 0),
    waitsUnknown: people.length - waits.length,
    byRules: matched.length - people.length,
    disagreements: disagreeing
      .sort((a, b) => b.decidedAt.getTime() - a.decidedAt.getTime())
      .map(({ runId, toolCallId, reviewer, reason, action }) => ({ runId, toolCallId, reviewer, reason, decided: action })),
  };
}
