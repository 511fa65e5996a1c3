/**
 * The calls the console decides by itself, among the waiting calls a listing read: a call a rule
 * approves or declines (auto-decide.ts, apply.ts), or the agent's follow-up call with a reviewer's
 * suggested arguments (lib/suggestions/claim.ts). The review queue leaves them out: no person is to
 * decide them, and docs/trust-and-suggest.md promises that a suggested follow-up call never shows.
 *
 * A call is written to the store (and could be listed) before any console instance has claimed it
 * (lib/events/waiting.ts), and it stays there while it is being decided. So a listed call is the
 * console's to decide when either
 *  - it is claimed and matched with `approve` or `decline`, and that match is not settled yet or
 *    its decision is under way or done (a listing read just before the run moved on); or
 *  - it is not claimed yet, and the open suggestions and enabled rules would decide it, read as the
 *    claim reads them (prepareSuggestionPlans, firstMatch).
 * Whether a call is claimed and how it was matched are read in one statement (one snapshot of the
 * database: the claim deletes the waiting row and writes the match in one transaction). A call
 * found unclaimed and judged a person's is read again after the suggestions and rules were: if it
 * was claimed meanwhile, its match decides.
 */
import { join, sqltag as sql } from "@prisma/client/runtime/client";
import { queryStatement, type AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import type { ConsoleRun } from "../runs/list-suspended-runs.ts";
import { prepareSuggestionPlans } from "../suggestions/claim.ts";
import { effectOn } from "./effect.ts";
import { compileRules, firstMatch } from "./match.ts";
import { listRules } from "./store.ts";

export const callKey = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

/** The keys (callKey) of the calls of `runs` (listed at `listedAt`) the console decides by itself. */
export async function callsDecidedByItself(db: Db, runs: ConsoleRun[], listedAt: Date): Promise<Set<string>> {
  const listed = new Map<string, { run: ConsoleRun; call: AgentRunToolCall }>();
  for (const run of runs)
    for (const call of run.toolCalls) if (call.toolCallId) listed.set(callKey(run.runId, call.toolCallId), { run, call });
  if (listed.size === 0) return new Set();
  const first = await readClaims(db, runs, listedAt);
  const unclaimed = [...first.waiting.keys()].filter((key) => listed.has(key) && !first.deciding.has(key));
  if (unclaimed.length === 0) return first.deciding;
  const wouldDecide = await prepareJudgement(db, [...new Set(unclaimed.map((key) => first.waiting.get(key)!.agentId))]);
  const deciding = new Set(first.deciding);
  const toPeople: ConsoleRun[] = [];
  for (const key of unclaimed) {
    const { run, call } = listed.get(key)!;
    if (wouldDecide(run, call, first.waiting.get(key)!)) deciding.add(key);
    else toPeople.push(run);
  }
  if (toPeople.length === 0) return deciding;
  const again = await readClaims(db, toPeople, listedAt);
  for (const key of again.deciding) if (listed.has(key)) deciding.add(key);
  return deciding;
}

/**
 * Of the calls of `runs`: the ones not claimed yet (with what the claim reads of them), and the
 * ones claimed and being decided by a rule or suggestion. The matches are found from the index on
 * settled_at (the few not settled, or settled since the listing was read, then with their decision),
 * not looked up by run: a page's thousand runs in an IN list made PostgreSQL scan every match
 * (18 ms at 100k matches). A match settled after `listedAt` (less a margin for other instances'
 * clocks) was still being decided when the listing read its call.
 */
async function readClaims(db: Db, runs: ConsoleRun[], listedAt: Date) {
  const runIds = [...new Set(runs.map((run) => run.runId))];
  const since = new Date(listedAt.getTime() - CLOCK_MARGIN_MS);
  const rows = await queryStatement<{ runId: string; toolCallId: string } & Partial<Unclaimed>>(
    db,
    sql`
    SELECT "run_id" AS "runId", "tool_call_id" AS "toolCallId", "agent_id" AS "agentId", "workflow_name" AS "workflowName",
      "tool_name" AS "toolName", "resource_id" AS "resourceId"
    FROM "waiting_tool_calls" WHERE "run_id" IN (${join(runIds)})
    UNION ALL
    SELECT "m"."run_id", "m"."tool_call_id", NULL, NULL, NULL, NULL
    FROM "call_rule_matches" AS "m"
    LEFT JOIN "tool_call_decisions" AS "d" ON "d"."run_id" = "m"."run_id" AND "d"."tool_call_id" = "m"."tool_call_id"
    WHERE ("m"."settled_at" IS NULL OR "m"."settled_at" >= ${since}) AND "m"."effect" IN ('approve', 'decline')
      AND ("m"."settled_at" IS NULL OR "d"."state" IN ('recorded', 'applying') OR ("d"."state" = 'applied' AND "d"."action" <> 'expire'))`,
  );
  const listed = new Set(runIds);
  const waiting = new Map<string, Unclaimed>();
  const deciding = new Set<string>();
  for (const { runId, toolCallId, agentId, workflowName, toolName, resourceId } of rows) {
    const key = callKey(runId, toolCallId);
    if (agentId) waiting.set(key, { agentId, workflowName: workflowName!, toolName: toolName ?? null, resourceId: resourceId ?? null });
    else if (listed.has(runId)) deciding.add(key);
  }
  return { waiting, deciding };
}

/** How far another console instance's clock (which stamps settled_at) may be behind this one's. */
const CLOCK_MARGIN_MS = 10_000;

/** A call not claimed yet, as the claim sees it (its row in waiting_tool_calls). */
interface Unclaimed {
  agentId: string;
  workflowName: string;
  toolName: string | null;
  resourceId: string | null;
}

/** Whether the claim would have the console decide a call: a suggestion with its arguments approves it, or a rule approves or declines it. */
async function prepareJudgement(db: Db, agentIds: string[]) {
  const now = new Date(); // as the claim judges: a trusted rule that has ended matches nothing
  const [suggestions, rules] = await Promise.all([
    prepareSuggestionPlans(db, agentIds),
    listRules(db, { enabledOnly: true }).then(compileRules),
  ]);
  return (run: ConsoleRun, call: AgentRunToolCall, claimed: Unclaimed): boolean => {
    const ref = { runId: run.runId, toolCallId: call.toolCallId! };
    if (suggestions?.(ref, run, call)?.outcome === "approved") return true;
    const kind = call.requiresApproval ? "approval" : "input";
    const rule = firstMatch(rules, { ...claimed, kind, args: call.args }, now);
    const effect = rule ? effectOn(rule, kind) : null;
    return effect === "approve" || effect === "decline";
  };
}
