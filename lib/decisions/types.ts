/**
 * The decision domain's vocabulary: what a reviewer can decide, the states a decision goes through,
 * why one is refused and what comes back. Browser-safe (no database, no Mastra): the console's
 * components use these types and codes too.
 */
import { AppError, type ErrorCode } from "../errors.ts";
import type { HumanIssue } from "./issues.ts";

/** argsDigest: the digest of the arguments the reviewer was shown (lib/audit/args-digest-text.ts), when the request carried it. */
type Target = { runId: string; toolCallId: string; agentId?: string; argsDigest?: string };
/** The reviewer saw that the call was interrupted and that its tool may already have run. */
type RiskConfirmation = { confirmMayHaveRun?: boolean };

export type Decision =
  | ({ action: "approve" } & Target & RiskConfirmation)
  | ({ action: "decline"; reason?: string } & Target)
  | ({ action: "resume"; resumeData: unknown } & Target & RiskConfirmation)
  /**
   * Never a reviewer's: the console's expiry (lib/decisions/expire.ts) declines a call that waited too
   * long through its agent ("decline", the default), or only records that it expired ("mark").
   */
  | ({ action: "expire"; reason: string; mode?: "decline" | "mark" } & Target);

/** Whether an action declines the call through the agent: a decline, or an expiry (never runs the tool). */
export function declinesCall(action: Decision["action"] | string): boolean {
  return action === "decline" || action === "expire";
}

/** The reason a declining decision gives the agent (and the history). */
export function reasonOf(decision: Decision): string | undefined {
  return decision.action === "decline" || decision.action === "expire" ? decision.reason : undefined;
}

/** How the console words an action that was taken ("Rita approved it") and one under way ("Rita is approving it"). */
export const DECIDED: Record<Decision["action"], string> = {
  approve: "approved",
  decline: "declined",
  resume: "resumed",
  expire: "expired",
};
export const DECIDING: Record<Decision["action"], "approving" | "declining" | "resuming" | "expiring"> = {
  approve: "approving",
  decline: "declining",
  resume: "resuming",
  expire: "expiring",
};

/** `error` of a decision released because its server stopped while the agent carried it out. */
export const INTERRUPTED = "interrupted";

export type DecisionErrorCode = Extract<
  ErrorCode,
  | "run_not_found"
  | "tool_call_not_pending"
  | "call_not_reached"
  | "wrong_kind"
  | "unknown_agent"
  | "wrong_agent"
  | "invalid_resume_data"
  | "invalid_suggestion"
  | "trust_forbidden"
  | "trust_refused"
  | "already_decided"
  | "already_approved_by_you"
  | "decided_outside"
  | "not_assignee"
  | "confirmation_required"
  | "agent_failed"
  | "arguments_changed"
>;

/** Who decided a call first, for the reviewers who came second. */
export interface PriorDecision {
  reviewer: string;
  action: Decision["action"];
  state: DecisionState;
  decidedAt: string;
}

export class DecisionError extends AppError {
  constructor(
    override readonly code: DecisionErrorCode,
    message: string,
    readonly issues: HumanIssue[] = [],
    readonly priorDecision?: PriorDecision,
  ) {
    super(code, message);
  }
}

/**
 * The decision was sent to a remote Mastra server, which then stopped answering (connection lost,
 * timeout): nobody knows whether its tool ran. Like a console server that stopped mid-decision, it
 * is left to recovery (recover.ts), which settles it once its lease runs out.
 */
export class AnswerLostError extends DecisionError {
  constructor(message: string) {
    super("agent_failed", message);
  }
}

export type DecisionState = "recorded" | "applying" | "applied" | "failed" | "released";

export interface DecisionOutcome {
  action: Decision["action"];
  runId: string;
  toolCallId: string;
  agentId: string;
  /** What the agent said after the decision. */
  answer: string;
  /**
   * The run stopped again for another call (it stays in the list), or it finished; or, for a call
   * that needs several people's approvals, this approval was recorded and the call still waits for
   * the others (nothing was sent to the agent).
   */
  runState: "completed" | "waiting-again" | "awaiting-approvals";
  /** A call under a "Require N approvals" rule: its approvals so far (this one included). */
  approvals?: ApprovalProgress;
}

/** A call a "Require N approvals" rule holds for N different people (lib/decisions/approvals.ts): who approved so far. */
export interface ApprovalProgress {
  required: number;
  approvals: Array<{ reviewer: string; approvedAt: string }>;
}

/** "1 of 2 approvals (Rita)", as the queue, the run page and Slack say it. */
export function approvalProgressText(progress: ApprovalProgress): string {
  const names = progress.approvals.map((approval) => approval.reviewer);
  return `${names.length} of ${progress.required} approvals${names.length ? ` (${names.join(", ")})` : ""}`;
}
/** What became of one call of a bulk request (lib/decisions/bulk.ts), in the request's order. */
export interface BulkCallResult {
  runId: string;
  toolCallId: string;
  /** When the console knew the call's tool (a call of an unknown run has none). */
  toolName?: string;
  /**
   * applied: carried out; already_decided: somebody decided first (decidedBy, decidedAt); refused:
   * not decidable this way (code, message), nothing changed; failed: the agent could not carry it
   * out (code, message; the message says whether the call is decidable again); awaiting_approvals:
   * the call needs several people's approvals and this one was recorded (approvals), nothing ran yet.
   */
  status: "applied" | "awaiting_approvals" | "already_decided" | "refused" | "failed";
  code?: ErrorCode;
  message?: string;
  decidedBy?: string;
  decidedAt?: string;
  /** With applied: what the agent said, and whether the run stopped again for another call. */
  answer?: string;
  runState?: DecisionOutcome["runState"];
  /** With awaiting_approvals: the call's approvals so far. */
  approvals?: ApprovalProgress;
}

/** A bulk request's answer: one result per requested call, in request order. */
export interface BulkOutcome {
  /** Shared by the audit entries of every call of the request (the history's `batch=` filter). */
  batchId: string;
  action: "approve" | "decline";
  results: BulkCallResult[];
  /** How many calls ended in each status. */
  counts: Record<BulkCallResult["status"], number>;
}

/** A decision recorded or being carried out right now: nobody else can decide the call meanwhile. */
export interface InFlightDecision {
  reviewer: string;
  action: Decision["action"];
  decidedAt: string;
}

/** What the console shows of a pending call's decision, if anything is to be shown. */
export interface CallDecisionState {
  interrupted?: InterruptedDecision;
  inFlight?: InFlightDecision;
  markedExpired?: MarkedExpiry;
  /** The call needs several people's approvals (a "Require N approvals" rule): who approved so far. */
  approvals?: ApprovalProgress;
}

/**
 * A call its expiry rule marked expired (mode "mark"): the agent was not told, so its run still waits
 * in the store, but the console decides it no more.
 */
export interface MarkedExpiry {
  /** When it expired. */
  expiredAt: string;
  /** "expired: no reviewer within …" */
  reason: string | null;
}

/** A call whose last decision was interrupted by a server stop: its tool may already have run. */
export interface InterruptedDecision {
  reviewer: string;
  action: Decision["action"];
  /** When the decision was made. */
  decidedAt: string;
  /** When recovery released it. */
  interruptedAt: string;
}
