/**
 * Four eyes: a call matched by a "Require N approvals" rule is carried out once N different people
 * approved it. Each approval is a row of call_approvals (one per run, call and reviewer) with an
 * `approved` audit entry; the approval that brings the count to N records the call's decision
 * (ledger.ts, first wins) in the same transaction, so the decision exists exactly when N approvals
 * do, and decide() carries it out once like any other. A decline (or an expiry) is recorded as
 * usual and ends it; approvals after that are told it was decided.
 *
 * Several reviewers approving at once, on one console instance or several: each transaction first
 * writes the call's rule-match row, which holds it until commit (a row lock on PostgreSQL; SQLite
 * has one writer), then counts. So approvals are counted one after the other: exactly N count, the
 * next one is told the call was decided. No in-process lock is involved.
 */
import { appendAudit, type AuditEntry } from "../audit/log.ts";
import type { Db } from "../db/client.ts";
import type { BulkRefusals } from "./bulk-refusals.ts";
import type { CallApproval, ToolCallDecision } from "../generated/sqlite/client.ts";
import { approvalsOfCall, progressOf } from "./approval-progress.ts";
import { alreadyDecided, createDecision } from "./ledger.ts";
import { isRetryableConflict, retriedOnConflict } from "./ledger-statements.ts";
import { approvalProgressText, DecisionError, type Decision, type DecisionOutcome } from "./types.ts";

export type ApprovalStep =
  /** The approval was recorded; the call waits for more (nothing was sent to the agent). */
  | { kind: "waiting"; outcome: DecisionOutcome }
  /** This approval was the N-th: the decision is recorded, to be carried out. */
  | { kind: "recorded"; decision: ToolCallDecision; approvals: CallApproval[]; required: number }
  /** Decide as usual: the call needs one decision, or its N approvals were given and its decision was released. */
  | { kind: "decide" };

type Approve = Extract<Decision, { action: "approve" }>;

/**
 * Records `audit.reviewer`'s approval of a call that needs several; refuses a second approval by the
 * same person (`already_approved_by_you`) and one after the call was decided (`already_decided`),
 * each audited (a bulk request's refusals once per reviewer, call and code: bulk-refusals.ts).
 * `required` is approvalsRequiredFor's answer for the call (decide() reads it beside its checks).
 */
export async function recordApproval(
  db: Db,
  decision: Approve,
  audit: AuditEntry,
  required: number | null,
  refusals?: BulkRefusals,
): Promise<ApprovalStep> {
  const key = { runId: decision.runId, toolCallId: decision.toolCallId };
  if (required === null) return { kind: "decide" };
  // The person, not the label: one account approves once, whatever it is called.
  const person = await db.user.findUnique({ where: { email: audit.reviewer }, select: { id: true, name: true } });
  const reviewerId = person?.id ?? audit.reviewer;
  const reviewerName = person?.name.trim() || audit.reviewer;

  const count = async () =>
    db.$transaction(async (tx) => {
      // Holds the call until this transaction ends: concurrent approvals count one after the other.
      const held = await tx.callRuleMatch.updateMany({
        where: { ...key, effect: "require_approvals" },
        data: { effect: "require_approvals" },
      });
      if (held.count === 0) return { kind: "decide" } as const; // an admin applied another rule to it meanwhile
      const prior = await tx.toolCallDecision.findUnique({ where: { runId_toolCallId: key } });
      if (prior && prior.state !== "released") return { kind: "conflict", prior } as const;
      const approvals = await approvalsOfCall(tx, key);
      // Approved by N people already, and its decision released (the agent failed before the tool ran): decidable again.
      if (approvals.length >= required) return { kind: "decide" } as const;
      const mine = approvals.find((approval) => approval.reviewerId === reviewerId);
      if (mine) return { kind: "mine", mine } as const;
      const now = new Date();
      const row = await tx.callApproval.create({ data: { ...key, reviewerId, reviewerName, approvedAt: now, via: audit.via ?? null } });
      const all = [...approvals, row];
      const complete = all.length >= required;
      const progress = approvalProgressText(progressOf(required, all));
      await appendAudit(
        tx,
        {
          ...audit,
          outcome: "approved",
          message: complete
            ? `Approval ${all.length} of ${required} by ${reviewerName}: ${progress}; the call is carried out.`
            : `Approval ${all.length} of ${required} by ${reviewerName}: ${progress}; the call waits for ${required - all.length} more.`,
        },
        now,
      );
      if (!complete) return { kind: "waiting", approvals: all } as const;
      // A released decline (its agent failed) still holds the row: recordDecision takes it over.
      if (prior) return { kind: "decide" } as const;
      return { kind: "recorded", decision: await createDecision(tx, decision, audit, undefined, now), approvals: all } as const;
    });
  // A decline recorded between this transaction's read and its write of the decision fails it on the
  // unique key, approval included (rolled back), or makes PostgreSQL pick it as a deadlock's victim:
  // counted again, it finds the decline and is told.
  const result = await retriedOnConflict(count, (error) => (error as { code?: string }).code === "P2002" || isRetryableConflict(error));

  const refuse = async (error: DecisionError, entry: AuditEntry): Promise<never> => {
    if (refusals) refusals.add(entry);
    else await appendAudit(db, entry);
    throw error;
  };
  switch (result.kind) {
    case "decide":
      return result;
    case "recorded":
      return { ...result, required };
    case "waiting":
      return {
        kind: "waiting",
        outcome: {
          action: "approve",
          ...key,
          agentId: audit.agentId!,
          answer: "",
          runState: "awaiting-approvals",
          approvals: progressOf(required, result.approvals),
        },
      };
    case "conflict": {
      const conflict = alreadyDecided(result.prior);
      return refuse(conflict, {
        ...audit,
        outcome: "conflict",
        code: conflict.code,
        message: conflict.message,
        decisionId: result.prior.id,
      });
    }
    case "mine": {
      const refusal = new DecisionError(
        "already_approved_by_you",
        `You already approved this call at ${result.mine.approvedAt.toISOString()}: it needs ${required} approvals from ${required} different people. Nothing was changed; another reviewer must approve it.`,
      );
      return refuse(refusal, { ...audit, outcome: "refused", code: refusal.code, message: refusal.message });
    }
  }
}
