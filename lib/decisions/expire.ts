/**
 * Expiry: a tool call waits at most as long as its agent's expiry rule allows (set by admins,
 * lib/actions/save-expiry-rule.ts; none by default). Past it the console expires the call as a
 * decision of its own kind ("expire", by "the expiry rule") through the same first-wins record as a
 * reviewer's: a reviewer deciding at the same moment either wins or is told it expired. The history
 * shows it as "expired", never as a decline. A rule's mode says what expiring does:
 * - "decline" (the default): the call is declined through the agent with the reason
 *   "expired: no reviewer within <duration>", and the run continues. Calls that wait for data
 *   (suspend()) cannot be declined through Mastra and do not expire.
 * - "mark": the expiry is only recorded (mark-expiry.ts); the agent is not told and its run stays
 *   suspended in the store, for the team's own clean-up. Input requests expire too.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { decide } from "./decide.ts";
import { DecisionError } from "./types.ts";

/** Who the history and the losing reviewer are told decided an expired call. */
export const EXPIRY_REVIEWER = "the expiry rule";

/** How many overdue runs one pass looks at per rule: the next pass takes the rest. */
const BATCH = 50;

export const EXPIRY_MODES = ["decline", "mark"] as const;
export type ExpiryMode = (typeof EXPIRY_MODES)[number];

export interface ExpiryRuleInput {
  agentId: string;
  /** "" for every tool of the agent; a tool's own rule wins over it. */
  toolName: string;
  afterMinutes: number;
  mode: string;
  /** How long before expiry `call.expiring` is announced (lib/announcements/expiring.ts); null: never. */
  warnMinutes: number | null;
}

/** Whether a rule expires this call: declining needs an approval; marking takes any call. */
export const expires = (rule: ExpiryRuleInput, call: Pick<AgentRunToolCall, "requiresApproval">) =>
  call.requiresApproval || rule.mode === "mark";

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
 * Expires every call that has waited past its rule, each through `decide` (first wins; a call
 * somebody is deciding, or decided, is left to them). Returns how many calls it expired.
 */
export async function expireOverdueCalls(databaseUrl: string = databaseUrlFromEnv(), now: Date = new Date()): Promise<number> {
  const db = await getDb(databaseUrl);
  const rules = await db.expiryRule.findMany();
  if (rules.length === 0) return 0;
  let expired = 0;
  for (const agentId of new Set(rules.map((rule) => rule.agentId))) {
    const shortest = Math.min(...rules.filter((rule) => rule.agentId === agentId).map((rule) => rule.afterMinutes));
    for (const run of await undecidedRunsWaitingSince(db, agentId, new Date(now.getTime() - shortest * 60_000))) {
      const calls = JSON.parse(run.toolCalls ?? "[]") as AgentRunToolCall[];
      for (const call of calls) {
        const rule = ruleFor(rules, agentId, call.toolName);
        const toolCallId = call.toolCallId;
        if (!toolCallId || !rule || !expires(rule, call) || run.updatedAt.getTime() > now.getTime() - rule.afterMinutes * 60_000) continue;
        const decided = await db.toolCallDecision.findUnique({
          where: { runId_toolCallId: { runId: run.runId, toolCallId } },
        });
        if (decided && decided.state !== "released") continue;
        try {
          await decide(
            {
              action: "expire",
              mode: rule.mode === "mark" ? "mark" : "decline",
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

/**
 * The agent's suspended runs waiting since before `before`, oldest first, a batch of them, leaving
 * out runs with a decision that holds one of their calls. A call expired in mark mode stays
 * suspended: without this, a batch of already-marked runs would come back first every round and
 * hide the calls still due behind them. The NOT EXISTS is a probe of tool_call_decisions' unique
 * (run_id, tool_call_id) index per run read, all inside the database: measured on PostgreSQL with
 * 50,000 marked runs of one agent, about 0.3 s per agent and pass (every 30 s at most). A cursor
 * over updated_at would make it constant; not done yet, as a rule added later must see old calls.
 */
async function undecidedRunsWaitingSince(db: Db, agentId: string, before: Date) {
  const rows = await db.$queryRaw<Array<{ runId: string; updatedAt: Date | string; toolCalls: string | null }>>`
    SELECT s."run_id" AS "runId", s."updated_at" AS "updatedAt", s."tool_calls" AS "toolCalls" FROM "workflow_snapshots" s
    WHERE s."status" = 'suspended' AND s."agent_id" = ${agentId} AND s."updated_at" < ${before}
      AND NOT EXISTS (SELECT 1 FROM "tool_call_decisions" d WHERE d."run_id" = s."run_id" AND d."state" <> 'released')
    ORDER BY s."updated_at" ASC LIMIT ${BATCH}`;
  // A raw query on SQLite may return the stored text.
  return rows.map((row) => ({ ...row, updatedAt: new Date(row.updatedAt) }));
}
