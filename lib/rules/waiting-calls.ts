/**
 * The calls waiting now, as a rule sees them, read from the columns the store keeps on each
 * suspended agent run (agent, workflow, resource, and the pending calls' JSON with their kind and
 * arguments), never from the snapshot. What a dry run and "apply to waiting calls" go through.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import { compileRules, ruleMatches, type RuleCall } from "./match.ts";
import { effectOn } from "./effect.ts";
import type { DryRunCall, DryRunResult } from "./dto.ts";
import type { Effect, RuleDefinition } from "./validations.ts";

const PAGE = 2_000;

export interface WaitingRuleCall extends RuleCall {
  runId: string;
  toolCallId: string;
}

/** Every waiting call, a page of runs at a time (by workflow and run id); `agentId` narrows in SQL. */
export async function* waitingCalls(db: Db, agentId: string | null): AsyncGenerator<WaitingRuleCall> {
  let after: { workflowName: string; runId: string } | undefined;
  for (;;) {
    const rows = await db.workflowSnapshot.findMany({
      where: {
        status: "suspended",
        agentId: { not: null },
        ...(agentId ? { OR: [{ agentId }, { workflowName: agentId }] } : {}),
        ...(after
          ? {
              OR: undefined,
              AND: [
                { OR: [{ workflowName: { gt: after.workflowName } }, { workflowName: after.workflowName, runId: { gt: after.runId } }] },
              ],
            }
          : {}),
      },
      orderBy: [{ workflowName: "asc" }, { runId: "asc" }],
      select: { workflowName: true, runId: true, agentId: true, resourceId: true, toolCalls: true },
      take: PAGE,
    });
    for (const row of rows) {
      for (const call of JSON.parse(row.toolCalls ?? "[]") as AgentRunToolCall[]) {
        if (!call.toolCallId) continue;
        yield {
          runId: row.runId,
          toolCallId: call.toolCallId,
          agentId: row.agentId!,
          workflowName: row.workflowName,
          toolName: call.toolName ?? null,
          resourceId: row.resourceId,
          kind: call.requiresApproval ? "approval" : "input",
          args: call.args,
        };
      }
    }
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { workflowName: last.workflowName, runId: last.runId };
  }
}

/**
 * What `rule` would do to the calls waiting now, on its own (whatever its place in the list and
 * whether it is enabled): counts by effect and one page of the matching calls.
 */
export async function dryRunRule(
  db: Db,
  rule: Omit<RuleDefinition, "id" | "position" | "version">,
  { page, pageSize }: { page: number; pageSize: number },
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
    if (!ruleMatches(compiled!, call)) continue;
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
