/**
 * The decisions of a period as a rule sees them, for replaying rules over the past (backtest.ts):
 * each approval call decided (approved, declined or expired) with its agent, tool, resource and
 * arguments, who decided it (a person, a rule, a reviewer's suggestion, expiry), when, and since when
 * it waited; its run and call ids, the reviewer's name and reason are read apart for the decisions a
 * page shows (whoDecided).
 *
 * Read from tool_call_decisions (one row per decided call: the decision in effect; a released one,
 * decidable again, is not a decision) by its (agent, tool, time) or (time) index, narrowed in SQL by
 * what the rule names; the arguments from the decision's `recorded` audit row (the audit log keeps an
 * approval call's arguments with it) by the log's (agent, time) or (outcome, time) index; and when
 * the call started waiting from its call_reviews row (lib/insights: written when the console claims
 * a newly waiting call; calls that waited before it was recorded have none). Only the columns the
 * replay needs.
 */
import { empty, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { queryStatement, workflowIdOfOwner, workflowOwnerKey } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import type { CallKind, RuleDefinition } from "./validations.ts";

/** Who made a past decision: a person (the console's pages, the API, Slack, bulk), a rule, a reviewer's suggestion, or expiry. */
export type DecidedBy = "person" | "rule" | "suggestion" | "expiry";
export type PastAction = "approve" | "decline" | "expire";

export interface PastDecision {
  /** The decision's own id (tool_call_decisions.id): whoDecided reads its call, reviewer and reason by it. */
  id: string;
  agentId: string;
  /** A workflow run's workflow (its agentId is `workflow:<name>`), as rules match it. */
  workflowName: string | null;
  toolName: string | null;
  resourceId: string | null;
  kind: CallKind;
  args: unknown;
  action: PastAction;
  decidedBy: DecidedBy;
  decidedAt: Date;
  /** When the call started waiting (call_reviews, recorded when the console claims a waiting call); null when not recorded. */
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
  agentId: string;
  toolName: string | null;
  resourceId: string | null;
  action: string;
  decidedBy: DecidedBy;
  decidedAt: Date | string;
  waitingSince: Date | string | null;
}

/** LIKE's own characters, escaped with `\`, so a resource prefix is taken as written. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
/**
 * Who decided, told apart in SQL (one column instead of four to read): expiry is its own action; a
 * rule's decision names the rule on its row; a suggestion's approval has a match of no rule that
 * approves (lib/rules/auto-decide.ts) and the reviewer "suggestion by <who>" (a person who decided
 * first is named themselves). Everyone else is a person.
 */
const DECIDED_BY = sql`CASE WHEN d.action = ${"expire"} THEN ${"expiry"} WHEN d.rule_id IS NOT NULL THEN ${"rule"}
  WHEN d.action = ${"approve"} AND m.effect = ${"approve"} AND m.rule_id IS NULL AND d.reviewer LIKE ${"suggestion by %"} THEN ${"suggestion"}
  ELSE ${"person"} END`;
/**
 * A decision's `recorded` audit row is written in its transaction with the decision's own time
 * (lib/decisions/ledger.ts); the margin only keeps a clock's rounding from losing one.
 */
const RECORDED_MARGIN_MS = 60_000;

/** What narrows both reads: the rule's agent, tool and resource, on columns both tables have. */
function scopeSql(scope: PastScope, table: "d" | "a"): Sql {
  const column = (name: string) => raw(`${table}.${name}`);
  return sql`${scope.agentId ? sql`AND ${column("agent_id")} IN (${scope.agentId}, ${workflowOwnerKey(scope.agentId)})` : empty}
    ${scope.toolName ? sql`AND ${column("tool_name")} = ${scope.toolName}` : empty}
    ${
      scope.resource
        ? scope.resourceMatch === "prefix"
          ? sql`AND ${column("resource_id")} LIKE ${likePrefix(scope.resource)} ESCAPE '\\'`
          : sql`AND ${column("resource_id")} = ${scope.resource}`
        : empty
    }`;
}

/**
 * Every decision of the period the scope allows, in no particular order. Two reads of one range
 * each, joined here by the decision's id: the decisions (with their rule match and review row) by decision time,
 * and their `recorded` audit rows (the arguments) by the audit log's time, both in the order they
 * were appended. (Joined in SQL, each decision looked its audit row up by run id: five times slower
 * at 100,000.) A call decided again after a release has a `recorded` row per attempt, each with the
 * same call's arguments.
 */
export async function readPastDecisions(db: Db, scope: PastScope, { from, to }: Period): Promise<PastDecision[]> {
  const [rows, recorded] = await Promise.all([
    queryStatement<Row>(
      db,
      sql`
      SELECT d.id, d.agent_id AS "agentId", d.tool_name AS "toolName",
        d.resource_id AS "resourceId", d.action, ${DECIDED_BY} AS "decidedBy", d.decided_at AS "decidedAt", r.waiting_since AS "waitingSince"
      FROM tool_call_decisions d
      LEFT JOIN call_rule_matches m ON m.run_id = d.run_id AND m.tool_call_id = d.tool_call_id
      LEFT JOIN call_reviews r ON r.run_id = d.run_id AND r.tool_call_id = d.tool_call_id
      WHERE d.decided_at >= ${from} AND d.decided_at < ${to}
        AND d.action IN (${"approve"}, ${"decline"}, ${"expire"}) AND d.state <> ${"released"}
        ${scopeSql(scope, "d")}`,
    ),
    queryStatement<{ decisionId: string | null; args: string | null }>(
      db,
      sql`
      SELECT a.decision_id AS "decisionId", a.args FROM audit_events a
      WHERE a.outcome = ${"recorded"} AND a.at >= ${new Date(from.getTime() - RECORDED_MARGIN_MS)} AND a.at < ${new Date(to.getTime() + RECORDED_MARGIN_MS)}
        ${scopeSql(scope, "a")}`,
    ),
  ]);
  const argsOf = new Map<string, string | null>();
  for (const row of recorded) if (row.decisionId !== null) argsOf.set(row.decisionId, row.args);
  const decisions: PastDecision[] = [];
  for (const row of rows) {
    if (argsOf.has(row.id)) decisions.push(pastDecisionOf(row, argsOf.get(row.id)!));
  }
  return decisions;
}

function pastDecisionOf(row: Row, args: string | null): PastDecision {
  return {
    id: row.id,
    agentId: row.agentId,
    workflowName: workflowIdOfOwner(row.agentId) ?? null,
    toolName: row.toolName,
    resourceId: row.resourceId,
    // The audit log keeps arguments only for a call that needs approval (lib/decisions/checks.ts).
    kind: args === null ? "input" : "approval",
    args: parseArgs(args),
    action: row.action as PastAction,
    decidedBy: row.decidedBy,
    decidedAt: new Date(row.decidedAt),
    waitingSince: row.waitingSince === null ? null : new Date(row.waitingSince),
  };
}

/** What a page shows of a past decision beside what the replay read: its call, who made it and why. */
export interface DecisionDetails {
  runId: string;
  toolCallId: string;
  reviewer: string;
  reason: string | null;
}

/**
 * The call, reviewer and reason of each of `decisions`: read for the few a page shows (by the
 * decisions' ids), not with every decision the replay reads, which needs none of them.
 */
export async function whoDecided(db: Db, decisions: readonly PastDecision[]): Promise<Map<string, DecisionDetails>> {
  const rows = decisions.length
    ? await db.toolCallDecision.findMany({
        where: { id: { in: decisions.map((decision) => decision.id) } },
        select: { id: true, runId: true, toolCallId: true, reviewer: true, reason: true },
      })
    : [];
  return new Map(rows.map(({ id, ...call }) => [id, call]));
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
