/**
 * Expiry: a tool call waits at most as long as its agent's expiry rule allows (set by admins,
 * lib/actions/save-expiry-rule.ts; none by default). Past it the console declines the call through
 * the agent, with the reason "expired: no reviewer within <duration>", as a decision of its own kind
 * ("expire") through the same first-wins record as a reviewer's: a reviewer deciding at the same
 * moment either wins or is told it expired. The history shows it as "expired", never as a decline.
 * Calls that wait for data (suspend()) cannot be declined through Mastra and do not expire.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { decide } from "./decide.ts";
import { DecisionError } from "./types.ts";

/** Who the history and the losing reviewer are told decided an expired call. */
export const EXPIRY_REVIEWER = "the expiry rule";

/** How many overdue runs one pass looks at per rule: the next pass takes the rest. */
const BATCH = 50;

export interface ExpiryRuleInput {
  agentId: string;
  /** "" for every tool of the agent; a tool's own rule wins over it. */
  toolName: string;
  afterMinutes: number;
}

/** "30 min", "2 h", "1 h 30 min", "3 d": how long a rule lets a call wait, in the reason and the UI. */
export function waitText(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} d`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** The rule for one call: the tool's own, else the agent's; undefined when it never expires. */
export function ruleFor(rules: ExpiryRuleInput[], agentId: string, toolName: string | undefined): ExpiryRuleInput | undefined {
  return (
    rules.find((rule) => rule.agentId === agentId && rule.toolName !== "" && rule.toolName === toolName) ??
    rules.find((rule) => rule.agentId === agentId && rule.toolName === "")
  );
}

/**
 * Declines every approval that has waited past its rule, each through `decide` (first wins; a call
 * somebody is deciding, or decided, is left to them). Returns how many calls it expired.
 */
export async function expireOverdueCalls(databaseUrl: string = databaseUrlFromEnv(), now: Date = new Date()): Promise<number> {
  const db = await getDb(databaseUrl);
  const rules = await db.expiryRule.findMany();
  if (rules.length === 0) return 0;
  let expired = 0;
  for (const agentId of new Set(rules.map((rule) => rule.agentId))) {
    const shortest = Math.min(...rules.filter((rule) => rule.agentId === agentId).map((rule) => rule.afterMinutes));
    const overdue = await db.workflowSnapshot.findMany({
      where: { status: "suspended", agentId, updatedAt: { lt: new Date(now.getTime() - shortest * 60_000) } },
      select: { runId: true, updatedAt: true, toolCalls: true },
      orderBy: { updatedAt: "asc" },
      take: BATCH,
    });
    for (const run of overdue) {
      const calls = JSON.parse(run.toolCalls ?? "[]") as AgentRunToolCall[];
      for (const call of calls) {
        const rule = ruleFor(rules, agentId, call.toolName);
        const toolCallId = call.toolCallId;
        if (!toolCallId || !rule || !call.requiresApproval || run.updatedAt.getTime() > now.getTime() - rule.afterMinutes * 60_000)
          continue;
        const decided = await db.toolCallDecision.findUnique({
          where: { runId_toolCallId: { runId: run.runId, toolCallId } },
        });
        if (decided && decided.state !== "released") continue;
        try {
          await decide(
            {
              action: "expire",
              runId: run.runId,
              toolCallId,
              reason: `expired: no reviewer within ${waitText(rule.afterMinutes)}`,
            },
            { reviewer: EXPIRY_REVIEWER, databaseUrl, asAssignee: false },
          );
          expired++;
        } catch (error) {
          // A reviewer got there first, the run moved on, or the agent failed: the call is not ours to expire now.
          if (!(error instanceof DecisionError)) throw error;
        }
      }
    }
  }
  return expired;
}
