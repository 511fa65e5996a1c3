/**
 * "Approve and trust": a reviewer approves a call and, in the same step, makes a rule that approves
 * the same calls for a while (15 minutes, an hour, or until midnight in their time zone): the call's
 * agent, its tool, its resource (exactly), and equality with this call's own value of each argument
 * they ticked (trust-fields.ts). The rule goes first in the list, so it wins; it names the reviewer
 * (`trustedBy`, and its first version) and ends at `expiresAt`, from when it matches nothing
 * (match.ts). Like any rule it is versioned, shown on /admin/rules, and an admin may edit or delete it.
 *
 * The approval goes through `decide`, first wins. The rule is written once this approval is
 * recorded and before it is carried out (decide's `onRecorded`), so the agent's next call finds it;
 * a reviewer whose approval loses (somebody decided first) writes no rule and gets the usual
 * `already_decided`. An approval refused or let go after it was recorded (the agent failed before
 * continuing) deletes the rule again (a last "deleted" version).
 *
 * Refused, before anything is written (and kept in the history): an agent whose admin turned trust
 * off (`trust_forbidden`); a tool an enabled rule rates high or critical, or holds for several
 * approvers (`trust_refused`: trust never overrides what a rule guards); a call without a resource;
 * a call that waits for data (`wrong_kind`: trust applies to calls that need approval only).
 */
import type { DecisionVia } from "../audit/log.ts";
import { trustAllowed } from "../assignments/review-settings.ts";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { auditRefusedBeforeDecide } from "../decisions/checks.ts";
import { decide } from "../decisions/decide.ts";
import { AnswerLostError, DecisionError } from "../decisions/types.ts";
import type { ConsoleRun } from "../runs/list-suspended-runs.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import { compileRules, ruleMatches, type RuleCall } from "./match.ts";
import type { TrustOutcome } from "./dto.ts";
import { createRule, deleteRule, listRules } from "./store.ts";
import { trustEnd } from "./trust-end.ts";
import { trustableFields, type TrustDuration } from "./trust-fields.ts";
import { ruleInputSchema, type RuleDefinition, type RuleInput } from "./validations.ts";

export interface TrustRequest {
  runId: string;
  toolCallId: string;
  agentId?: string;
  confirmMayHaveRun?: boolean;
  duration: TrustDuration;
  /** Paths of the call's scalar arguments the rule requires to equal this call's values. */
  sameArguments: string[];
}

export async function approveAndTrust(
  request: TrustRequest,
  {
    reviewer,
    via,
    timeZone,
    databaseUrl = databaseUrlFromEnv(),
    now = new Date(),
  }: {
    reviewer: string;
    via?: DecisionVia;
    /** The reviewer's IANA zone: "today" ends at its midnight. */
    timeZone: string;
    databaseUrl?: string;
    /** When the trust starts (its end is counted from here). */
    now?: Date;
  },
): Promise<TrustOutcome> {
  const db = await getDb(databaseUrl);
  const { duration, sameArguments, ...target } = request;
  const approval = { action: "approve" as const, ...target };
  const options = { reviewer, via, databaseUrl };
  const run = await findSuspendedRun(target.runId, databaseUrl);
  const call = run?.toolCalls.find((candidate) => candidate.toolCallId === target.toolCallId);
  // Nothing to trust (gone, decided, another agent's): decide() refuses it as any approval, `already_decided` naming who.
  if (!run || !call || (target.agentId && target.agentId !== run.agentId)) {
    return { ...(await decide(approval, options)), trustedRule: null };
  }
  let input: RuleInput;
  try {
    input = await trustedRuleInput(db, run, call, sameArguments, now);
  } catch (error) {
    if (error instanceof DecisionError) {
      const attempt = { reviewer, via, action: "approve", runId: target.runId, toolCallId: target.toolCallId };
      await auditRefusedBeforeDecide(db, run, call, attempt, error);
    }
    throw error;
  }
  const expiresAt = trustEnd(duration, now, timeZone);
  let trustedRule: RuleDefinition | null = null;
  // Runs once the approval is recorded: it is carried out even if the rule cannot be written (the answer then has no rule).
  const writeRule = async () => {
    try {
      trustedRule = await createRule(db, input, reviewer, { trusted: { expiresAt } });
    } catch (error) {
      console.error("[trust] the trusted rule was not written:", error);
    }
  };
  const note = `Approved and trusted: rule "${input.name}" approves the same calls until ${expiresAt.toISOString()}.`;
  try {
    return { ...(await decide(approval, { ...options, note, onRecorded: writeRule })), trustedRule };
  } catch (error) {
    // Recorded, then refused or let go: the trust goes with it. Lost on its way to a remote server: the approval may have happened, so it stays.
    const written = trustedRule as RuleDefinition | null;
    if (written && error instanceof DecisionError && !(error instanceof AnswerLostError)) await deleteRule(db, written.id, reviewer);
    throw error;
  }
}

/** The rule to write for this call, or a DecisionError saying why it may not be trusted. */
async function trustedRuleInput(db: Db, run: ConsoleRun, call: AgentRunToolCall, sameArguments: string[], now: Date): Promise<RuleInput> {
  if (!call.requiresApproval) {
    throw new DecisionError("wrong_kind", "This call waits for data: only a call that needs approval can be approved and trusted.");
  }
  if (!(await trustAllowed(db, run.agentId))) {
    throw new DecisionError(
      "trust_forbidden",
      `An admin turned off "Approve and trust" for agent "${run.agentId}": approve this call on its own, nothing was changed.`,
    );
  }
  const toolName = call.toolName ?? null;
  const resource = run.resourceId || null;
  if (!toolName || !resource) {
    throw new DecisionError(
      "trust_refused",
      `This call has no ${toolName ? "resource" : "tool name"}: a trusted rule names the call's tool and resource, so it cannot be trusted. Approve it on its own.`,
    );
  }
  const guard = await guardingRule(db, { agentId: run.agentId, toolName, resource }, now);
  if (guard) {
    const what =
      guard.effect === "require_approvals" ? `holds ${toolName} for ${guard.approvals} approvers` : `rates ${toolName} ${guard.risk}`;
    throw new DecisionError(
      "trust_refused",
      `Rule "${guard.name}" ${what}: a trusted rule never approves a tool a rule rates high or critical or holds for several approvers. Approve this call on its own.`,
    );
  }
  const offered = new Map(trustableFields(call.args).map((field) => [field.path, field.value]));
  const unknown = sameArguments.filter((path) => !offered.has(path));
  if (unknown.length > 0) {
    throw new DecisionError(
      "trust_refused",
      `Not a scalar argument of this call: ${unknown.map((path) => `"${path.slice(0, 100)}"`).join(", ")}. Tick only the fields offered.`,
    );
  }
  return ruleInputSchema.parse({
    name: `trusted: ${toolName} for ${resource}`.slice(0, 100),
    enabled: true,
    agentId: run.agentId,
    toolName,
    resource,
    resourceMatch: "exact",
    callKind: "approval",
    conditions: sameArguments.map((path) => ({ path, op: "equals", value: offered.get(path) })),
    effect: "approve",
    risk: await riskOfCall(db, run.runId, call.toolCallId!),
  });
}

/**
 * An enabled rule, still live, that rates high or critical, or holds for several approvers, the calls
 * a trusted rule would approve (this agent's calls of this tool on this resource, needing approval):
 * a trusted rule placed before it would override it. Its conditions are left out (a rule that guards
 * some calls of the tool guards the tool).
 */
async function guardingRule(db: Db, call: { agentId: string; toolName: string; resource: string }, now: Date) {
  const guards = (await listRules(db, { enabledOnly: true })).filter(
    (rule) => rule.risk === "high" || rule.risk === "critical" || rule.effect === "require_approvals",
  );
  const probe: RuleCall = { agentId: call.agentId, toolName: call.toolName, resourceId: call.resource, kind: "approval", args: {} };
  return compileRules(guards.map((rule) => ({ ...rule, conditions: [] }))).find((scope) => ruleMatches(scope, probe, now))?.rule ?? null;
}

/** The call's own risk, as the rule that matched it when it started waiting rated it (low or medium here); unrated: medium. */
async function riskOfCall(db: Db, runId: string, toolCallId: string) {
  const match = await db.callRuleMatch.findUnique({ where: { runId_toolCallId: { runId, toolCallId } }, select: { risk: true } });
  return match?.risk === "low" ? "low" : "medium";
}
