/**
 * The decisions of a period as a rule sees them, for replaying rules over the past (backtest.ts):
 * each approval call decided (approved, declined or expired) with its agent, tool, resource and
 * arguments, who decided it (a person, a rule, a reviewer's suggestion, expiry), when, why, and
 * since when it waited.
 *
 * Read from tool_call_decisions (one row per decided call: the decision in effect; a released one,
 * decidable again, is not a decision) by its (agent, tool, time) or (time) index, narrowed in SQL by
 * what the rule names; the arguments from the decision's `recorded` audit row (the audit log keeps an
 * approval call's arguments with it), found by run id; and when the call started waiting from
 * call_rule_matches (history-waits.ts has the rest). Only the columns the replay needs.
 */
import { empty, sqltag as sql } from "@prisma/client/runtime/client";
import { queryStatement, workflowIdOfOwner, workflowOwnerKey } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import type { CallKind, RuleDefinition } from "./validations.ts";

/** Who made a past decision: a person (the console's pages, the API, Slack, bulk), a rule, a reviewer's suggestion, or expiry. */
export type DecidedBy = "person" | "rule" | "suggestion" | "expiry";
export type PastAction = "approve" | "decline" | "expire";

export interface PastDecision {
  runId: string;
  toolCallId: string;
  agentId: string;
  /** A workflow run's workflow (its agentId is `workflow:<name>`), as rules match it. */
  workflowName: string | null;
  toolName: string | null;
  resourceId: string | null;
  kind: CallKind;
  args: unknown;
  action: PastAction;
  decidedBy: DecidedBy;
  reviewer: string;
  reason: string | null;
  decidedAt: Date;
  /** When the call started waiting, when known (history-waits.ts); null otherwise. */
  waitingSince: Date | null;
}

/** What narrows the read in SQL: the fields a rule names (the matcher still checks each decision). */
export type PastScope = Partial<Pick<RuleDefinition, "agentId" | "toolName" | "resource" | "resourceMatch">>;

export interface Period {
  from: Date;
  to: Date;
}

/** A period of `days` whole 24-hour days ending now. */
export function lastDays(days: number, now: Date = new Date()): Period {
  return { from: new Date(now.getTime() - days * 86_400_000), to: now };
}

interface Row {
  id: string;
  runId: string;
  toolCallId: string;
  agentId: string;
  toolName: string | null;
  resourceId: string | null;
  action: string;
  reviewer: string;
  reason: string | null;
  decidedAt: Date | string;
  ruleId: string | null;
  args: string | null;
  matchEffect: string | null;
  matchRuleId: string | null;
  matchedAt: Date | string | null;
}

const SUGGESTION_REVIEWER = "suggestion by ";
/** LIKE's own characters, escaped with `\`, so a resource prefix is taken as written. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/**
 * Every decision of the period the scope allows, in no particular order. A call decided again after
 * a release has two `recorded` rows (one per attempt): it is kept once.
 */
export async function readPastDecisions(db: Db, scope: PastScope, { from, to }: Period): Promise<PastDecision[]> {
  const rows = await queryStatement<Row>(
    db,
    sql`
    SELECT d.id, d.run_id AS "runId", d.tool_call_id AS "toolCallId", d.agent_id AS "agentId", d.tool_name AS "toolName",
      d.resource_id AS "resourceId", d.action, d.reviewer, d.reason, d.decided_at AS "decidedAt", d.rule_id AS "ruleId",
      a.args, m.effect AS "matchEffect", m.rule_id AS "matchRuleId", m.matched_at AS "matchedAt"
    FROM tool_call_decisions d
    JOIN audit_events a ON a.run_id = d.run_id AND a.tool_call_id = d.tool_call_id AND a.decision_id = d.id AND a.outcome = ${"recorded"}
    LEFT JOIN call_rule_matches m ON m.run_id = d.run_id AND m.tool_call_id = d.tool_call_id
    WHERE d.decided_at >= ${from} AND d.decided_at < ${to}
      AND d.action IN (${"approve"}, ${"decline"}, ${"expire"}) AND d.state <> ${"released"}
      ${scope.agentId ? sql`AND d.agent_id IN (${scope.agentId}, ${workflowOwnerKey(scope.agentId)})` : empty}
      ${scope.toolName ? sql`AND d.tool_name = ${scope.toolName}` : empty}
      ${
        scope.resource
          ? scope.resourceMatch === "prefix"
            ? sql`AND d.resource_id LIKE ${likePrefix(scope.resource)} ESCAPE '\\'`
            : sql`AND d.resource_id = ${scope.resource}`
          : empty
      }`,
  );
  const seen = new Set<string>();
  const decisions: PastDecision[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    decisions.push(pastDecisionOf(row));
  }
  return decisions;
}

function pastDecisionOf(row: Row): PastDecision {
  const action = row.action as PastAction;
  return {
    runId: row.runId,
    toolCallId: row.toolCallId,
    agentId: row.agentId,
    workflowName: workflowIdOfOwner(row.agentId) ?? null,
    toolName: row.toolName,
    resourceId: row.resourceId,
    // The audit log keeps arguments only for a call that needs approval (lib/decisions/checks.ts).
    kind: row.args === null ? "input" : "approval",
    args: parseArgs(row.args),
    action,
    decidedBy: decidedByOf(row, action),
    reviewer: row.reviewer,
    reason: row.reason,
    decidedAt: new Date(row.decidedAt),
    waitingSince: row.matchedAt === null ? null : new Date(row.matchedAt),
  };
}

/**
 * A rule's decision names the rule on its row; a suggestion's approval has a match of no rule that
 * approves (lib/rules/auto-decide.ts) and the reviewer "suggestion by <who>" (a person who decided
 * first is named themselves); expiry is its own action. Everyone else is a person.
 */
function decidedByOf(row: Row, action: PastAction): DecidedBy {
  if (action === "expire") return "expiry";
  if (row.ruleId !== null) return "rule";
  if (action === "approve" && row.matchEffect === "approve" && row.matchRuleId === null && row.reviewer.startsWith(SUGGESTION_REVIEWER)) {
    return "suggestion";
  }
  return "person";
}

/** The recorded arguments; a value cut short by the audit log's cap is no longer JSON, and matches no condition. */
function parseArgs(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
