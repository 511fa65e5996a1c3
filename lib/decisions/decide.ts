/**
 * `decide`: the only way a suspended run is continued. Every action (approve, decline, resume)
 * comes through here, and recovery (recover.ts) carries out what a stopped server left.
 *
 * 1. Check the request against the database (checks.ts): the run exists and is suspended, waits
 *    on exactly this tool call, of this kind; the owning agent is resolved from the stored
 *    snapshot, never from the caller; resume data satisfies the tool's own resumeSchema. Anything
 *    else is refused (audited).
 * 2. Record the decision before anything is sent to the agent (ledger.ts), first one wins per
 *    (runId, toolCallId): everyone else gets `already_decided` naming who decided what and when.
 *    The tool can therefore run once, across tabs, reviewers and servers. An approval of a call
 *    under "Require N approvals" is recorded as one of N (approvals.ts); the N-th records the decision.
 * 3. Carry it out through the real agent under a lease (carry-out.ts): recorded → applying →
 *    applied | failed | released (decidable again: the agent failed before the tool ran). An
 *    expiry in mark mode is not carried out: it is applied as recorded (mark-expiry.ts).
 */
import { appendAudit, type AuditCredential, type AuditEntry, type DecisionVia } from "../audit/log.ts";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { failpoint } from "../failpoint.ts";
import type { ConsoleRun } from "../runs/list-suspended-runs.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import type { SuggestionRow } from "./suggestion-record.ts";
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import { approvalsRequiredFor, progressOf } from "./approval-progress.ts";
import { recordApproval } from "./approvals.ts";
import { checkAssignee } from "./assignee.ts";
import type { BulkRefusals } from "./bulk-refusals.ts";
import { carryOut } from "./carry-out.ts";
import { checkArguments, checkKind, checkResumeData, describeRun, refuseAsDecidedOrMissing } from "./checks.ts";
import { recordDecision, type DecidingRule } from "./ledger.ts";
import { markExpired } from "./mark-expiry.ts";
import { resolveOwner, type RunOwner } from "./owners.ts";
import { DecisionError, reasonOf, type Decision, type DecisionOutcome } from "./types.ts";

export async function decide(
  decision: Decision,
  {
    reviewer,
    databaseUrl = databaseUrlFromEnv(),
    batchId,
    refusals,
    asAssignee = true,
    via,
    credential,
    rule,
    note,
    suggestion,
    onRecorded,
  }: {
    reviewer: string;
    /**
     * Whether the agent's "only the assignee decides" applies (lib/assignments/review-settings.ts):
     * it does to people; the console's own expiry decides whoever holds the call.
     */
    asAssignee?: boolean;
    databaseUrl?: string;
    /** Where the reviewer decided (kept on the decision and its audit entries). */
    via?: DecisionVia;
    /** How the reviewer authenticated, and the API token if one asked: kept on the audit entries this writes. */
    credential?: AuditCredential;
    /** The bulk request this decision is part of (bulk.ts): kept on the decision and on each of its audit entries. */
    batchId?: string;
    /** A bulk request's refusals are written together once it is done (bulk-refusals.ts), not one by one here. */
    refusals?: BulkRefusals;
    /** The rule (and its version) deciding, when a rule decides (lib/rules/auto-decide.ts): kept on the decision. */
    rule?: DecidingRule;
    /** Kept on the recorded decision's history entry: why it was made, when that is not a reason (lib/suggestions). */
    note?: string;
    /** A decline's one-time suggestion (lib/suggestions/suggest.ts): recorded with the decision, only if this one wins. */
    suggestion?: SuggestionRow;
    /**
     * Runs once this decision is recorded (it won the call), before it is carried out: "Approve and
     * trust" writes its rule here (lib/rules/trust.ts), so the agent's next call finds it. A decision
     * that loses, or an approval that only counts toward several, never runs it.
     */
    onRecorded?: () => Promise<void>;
  },
): Promise<DecisionOutcome> {
  const db = await getDb(databaseUrl);
  const audit: AuditEntry = {
    reviewer,
    batchId,
    via,
    ...credential,
    action: decision.action,
    outcome: "refused",
    runId: decision.runId,
    toolCallId: decision.toolCallId,
    reason: reasonOf(decision),
    resumeData: decision.action === "resume" ? decision.resumeData : undefined,
    message: note,
  };
  let run: ConsoleRun | undefined;
  let call: AgentRunToolCall | undefined;
  let owner: RunOwner;
  // A call under "Require N approvals" is decided by its N-th approval (approvals.ts); a rule never approves one.
  const countsApprovals = decision.action === "approve" && !rule;
  let requiredApprovals: number | null = null;
  try {
    run = (await findSuspendedRun(decision.runId, databaseUrl)) ?? undefined;
    call = run?.toolCalls.find((candidate) => candidate.toolCallId === decision.toolCallId);
    Object.assign(audit, describeRun(run, call));
    if (!run || !call) await refuseAsDecidedOrMissing(db, decision, run, audit, databaseUrl);
    checkKind(call!, decision);
    checkArguments(call!, decision, audit);
    if (decision.agentId && decision.agentId !== run!.agentId) {
      throw new DecisionError(
        "wrong_agent",
        `Run "${decision.runId}" belongs to agent "${run!.agentId}", not "${decision.agentId}": it can only be continued by its owner.`,
      );
    }
    // Independent reads, sent together (on PostgreSQL they go out side by side on the pool); a
    // refusal is still the first one in this order, as when they were made one after the other.
    [audit.assignee, requiredApprovals, owner] = await inOrder([
      asAssignee ? checkAssignee(db, { ...run!, toolCallId: decision.toolCallId }, reviewer) : undefined,
      countsApprovals ? approvalsRequiredFor(db, decision) : null,
      resolveOwner(run!.agentId, databaseUrl),
    ] as const);
    if (decision.action === "resume") await checkResumeData(owner, call!, decision.runId, decision.resumeData);
  } catch (error) {
    if (error instanceof DecisionError) {
      const refusal: AuditEntry = {
        ...audit,
        outcome: error.code === "already_decided" ? "conflict" : "refused",
        code: error.code,
        message: error.message,
      };
      if (refusals) refusals.add(refusal);
      else await appendAudit(db, refusal);
    }
    throw error;
  }

  const step = countsApprovals ? await recordApproval(db, decision, audit, requiredApprovals, refusals) : ({ kind: "decide" } as const);
  if (step.kind === "waiting") return step.outcome;
  const recorded = step.kind === "recorded" ? step.decision : await recordDecision(db, decision, audit, rule, suggestion);
  await onRecorded?.();
  failpoint("after-record");
  if (decision.action === "expire" && decision.mode === "mark") return markExpired(db, recorded);
  const outcome = await carryOut(db, recorded, owner);
  return step.kind === "recorded" ? { ...outcome, approvals: progressOf(step.required, step.approvals) } : outcome;
}

/** Waits for every one of `work` and throws the first failure in the order given (Promise.all throws the first to happen). */
async function inOrder<T extends readonly unknown[]>(work: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(work);
  for (const result of settled) if (result.status === "rejected") throw result.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
