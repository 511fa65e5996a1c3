/**
 * The calls waiting now, as a rule sees them, read from the columns the store keeps on each
 * suspended agent run (agent, workflow, resource, and the pending calls' JSON with their kind and
 * arguments), never from the snapshot. What a dry run and "apply to waiting calls" go through.
 */
import { empty, sqltag as sql } from "@prisma/client/runtime/client";
import { queryStatement, type AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import { compileRules, ruleMatches, type RuleCall } from "./match.ts";
import { effectOn } from "./effect.ts";
import type { DryRunCall, DryRunResult } from "./dto.ts";
import type { Effect, RuleDefinition } from "./validations.ts";

/** Calls per read: a dry run over 100k waiting calls is 20 reads, and memory stays flat. */
const PAGE = 5_000;

export interface WaitingRuleCall extends RuleCall {
  runId: string;
  toolCallId: string;
}

interface PendingRow {
  workflowName: string;
  runId: string;
  toolCallId: string;
  agentId: string;
  resourceId: string | null;
  call: string;
}

/**
 * Every waiting call, a page at a time in key order, from the store's pending_tool_calls (one small
 * row per waiting call, kept by triggers; a run's own row holds its whole snapshot); `agentId`
 * narrows in SQL. Each page starts after the last one with a row-value comparison, which both
 * databases read as one range of the primary key (Prisma's cursor, `a > x OR (a = x AND b > y)`,
 * made them rescan from the start on every page). Read straight from the connection (queryStatement).
 */
export async function* waitingCalls(db: Db, agentId: string | null, { pageSize = PAGE } = {}): AsyncGenerator<WaitingRuleCall> {
  let after: PendingRow | undefined;
  for (;;) {
    const rows = await queryStatement<PendingRow>(
      db,
      sql`
      SELECT "workflow_name" AS "workflowName", "run_id" AS "runId", "tool_call_id" AS "toolCallId",
        "agent_id" AS "agentId", "resource_id" AS "resourceId", "call"
      FROM "pending_tool_calls"
      WHERE ${agentId ? sql`("agent_id" = ${agentId} OR "workflow_name" = ${agentId})` : sql`1 = 1`}
        ${after ? sql`AND ("workflow_name", "run_id", "tool_call_id") > (${after.workflowName}, ${after.runId}, ${after.toolCallId})` : empty}
      ORDER BY "workflow_name", "run_id", "tool_call_id"
      LIMIT ${pageSize}`,
    );
    for (const row of rows) {
      const call = JSON.parse(row.call) as AgentRunToolCall;
      yield {
        runId: row.runId,
        toolCallId: row.toolCallId,
        agentId: row.agentId,
        workflowName: row.workflowName,
        toolName: call.toolName ?? null,
        resourceId: row.resourceId,
        kind: call.requiresApproval ? "approval" : "input",
        args: call.args,
      };
    }
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1];
  }
}

/**
 * What `rule` would do to the calls waiting now, on its own (whatever its place in the list and
 * whether it is enabled) at `now`: counts by effect and one page of the matching calls (none once it ended).
 */
export async function dryRunRule(
  db: Db,
  rule: Omit<RuleDefinition, "id" | "position" | "version" | "expiresAt" | "trustedBy"> & { expiresAt?: string | null },
  { page, pageSize }: { page: number; pageSize: number },
  now = new Date(),
): Promise<DryRunResult> {
  const [compiled] = compileRules([{ ...rule, enabled: true }]);
  const counts: Record<Effect, number> = { approve: 0, decline: 0, require_approvals: 0, ask: 0 };
  const calls: DryRunCall[] = [];
  const first = (page - 1) * pageSize;
  let waiting = 0;
  let matched = 0;
  // Counting every waiting call needs the whole scan; narrowing by agent in SQL is only a speed-up when the total is not asked for.
  for await (const call of waitingCalls(db, null)) {
    waiting++;
    if (!ruleMatches(compiled!, call, now)) continue;
    const effect = effectOn(rule, call.kind);
    counts[effect]++;
    if (matched >= first && calls.length < pageSize) {
      const args = JSON.stringify(call.args ?? null) ?? "null";
      calls.push({
        ...call,
        toolName: call.toolName ?? null,
        resourceId: call.resourceId ?? null,
        effect,
        args: args.length > 300 ? `${args.slice(0, 299)}…` : args,
      });
    }
    matched++;
  }
  return {
    waiting,
    counts,
    matched,
    page,
    pageSize,
    calls: calls.map(({ runId, toolCallId, agentId, toolName, resourceId, kind, effect, args }) => ({
      runId,
      toolCallId,
      agentId,
      toolName,
      resourceId,
      kind,
      effect,
      args,
    })),
  };
}
