/**
 * Which calls need several people's approvals, and who approved them so far: read side of
 * approvals.ts. A call needs N approvals when the rule that matched it as it started waiting
 * (call_rule_matches, lib/rules/auto-decide.ts) says "require_approvals"; N is read from that very
 * rule version (rule_versions), so editing or deleting the rule later changes no call already
 * waiting. Read here, not through lib/rules (which decides through this module), as plain rows.
 */
import type { Db } from "../db/client.ts";
import type { ApprovalProgress } from "./types.ts";

type Reader = Pick<Db, "callRuleMatch" | "ruleVersion" | "callApproval">;
type CallKey = { runId: string; toolCallId: string };

/** The fewest approvals a "Require N approvals" rule may ask for (lib/rules/validations.ts). */
const MIN_APPROVALS = 2;

const keyOf = (call: CallKey) => `${call.runId}\u0000${call.toolCallId}`;

/** How many approvals each matched call of `runIds` needs, keyed by run and tool call; calls one decision decides are absent. */
async function requiredApprovals(db: Reader, runIds: string[]): Promise<Map<string, number>> {
  const matches = await db.callRuleMatch.findMany({
    where: { runId: { in: runIds }, effect: "require_approvals" },
    select: { runId: true, toolCallId: true, ruleId: true, ruleVersion: true },
  });
  const required = new Map<string, number>();
  if (matches.length === 0) return required;
  const versions = await db.ruleVersion.findMany({
    where: {
      OR: matches.filter((match) => match.ruleId && match.ruleVersion).map((m) => ({ ruleId: m.ruleId!, version: m.ruleVersion! })),
    },
    select: { ruleId: true, version: true, rule: true },
  });
  const byVersion = new Map(versions.map((row) => [`${row.ruleId}@${row.version}`, approvalsOf(row.rule)]));
  for (const match of matches) required.set(keyOf(match), byVersion.get(`${match.ruleId}@${match.ruleVersion}`) ?? MIN_APPROVALS);
  return required;
}

function approvalsOf(ruleJson: string): number {
  const approvals = (JSON.parse(ruleJson) as { approvals?: unknown }).approvals;
  return typeof approvals === "number" && approvals >= MIN_APPROVALS ? approvals : MIN_APPROVALS;
}

/** How many approvals one call needs; null when one decision decides it. */
export async function approvalsRequiredFor(db: Reader, call: CallKey): Promise<number | null> {
  return (await requiredApprovals(db, [call.runId])).get(keyOf(call)) ?? null;
}

/** A call's approvals so far, oldest first. */
export async function approvalsOfCall(db: Pick<Db, "callApproval">, call: CallKey) {
  return db.callApproval.findMany({ where: { runId: call.runId, toolCallId: call.toolCallId }, orderBy: { approvedAt: "asc" } });
}

export function progressOf(required: number, approvals: Array<{ reviewerName: string; approvedAt: Date }>): ApprovalProgress {
  return { required, approvals: approvals.map((row) => ({ reviewer: row.reviewerName, approvedAt: row.approvedAt.toISOString() })) };
}

/** The approval progress of every call of `runIds` that needs several approvals, keyed by run and tool call. Three indexed reads. */
export async function findApprovalProgress(db: Reader, runIds: string[]): Promise<Map<string, Map<string, ApprovalProgress>>> {
  const found = new Map<string, Map<string, ApprovalProgress>>();
  if (runIds.length === 0) return found;
  const required = await requiredApprovals(db, runIds);
  if (required.size === 0) return found;
  const rows = await db.callApproval.findMany({ where: { runId: { in: runIds } }, orderBy: { approvedAt: "asc" } });
  const byCall = new Map<string, typeof rows>();
  for (const row of rows) byCall.set(keyOf(row), [...(byCall.get(keyOf(row)) ?? []), row]);
  for (const [key, count] of required) {
    const [runId, toolCallId] = key.split("\u0000") as [string, string];
    const calls = found.get(runId) ?? new Map<string, ApprovalProgress>();
    calls.set(toolCallId, progressOf(count, byCall.get(key) ?? []));
    found.set(runId, calls);
  }
  return found;
}
