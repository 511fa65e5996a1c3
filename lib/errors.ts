/**
 * Every error code the console answers with, and what each means over HTTP: one table, exhaustive
 * (a new code does not compile until it has a status), shared by the JSON API, the server actions'
 * results and the browser (which derives "somebody decided first" from it). Browser-safe.
 */
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthenticated: 401,
  /** A request to the Slack endpoints without a valid Slack signature, or signed more than 5 minutes ago. */
  invalid_signature: 401,
  forbidden: 403,
  /** The agent lets only a call's assignee decide it (lib/assignments), and this is somebody else. */
  not_assignee: 403,
  cross_site: 403,
  /** "Approve and trust" on a call of an agent whose admin turned trust off (/admin/agents). */
  trust_forbidden: 403,
  /** A Slack user who has not linked a console account (/profile → Link Slack) clicked a button. */
  slack_not_linked: 403,
  run_not_found: 404,
  /** A user id that names nobody (setting a role). */
  user_not_found: 404,
  /** A webhook endpoint id that names none, or a delivery id that names no delivery of that endpoint. */
  webhook_not_found: 404,
  /** No expiry rule for this (agent, tool) to remove. */
  expiry_rule_not_found: 404,
  /** A rule id that names no rule (lib/rules/store.ts). */
  rule_not_found: 404,
  /** An API token id that names no token (of yours, on /profile). */
  token_not_found: 404,
  /** A service account id that names none. */
  service_account_not_found: 404,
  /** An endpoint the console does not open (better-auth's own, lib/auth/endpoints.ts). */
  not_found: 404,
  already_decided: 409,
  /** A call that needs several people's approvals (a "Require N approvals" rule) already has this reviewer's. */
  already_approved_by_you: 409,
  /** The call was decided elsewhere (Mastra Studio, the agent's own code) without a console record. */
  decided_outside: 409,
  tool_call_not_pending: 409,
  /** The call no longer waits on the arguments the reviewer was shown (lib/audit/args-digest.ts): nothing was decided. */
  arguments_changed: 409,
  /** A call Mastra has not reached yet: another call of its step must be decided first. */
  call_not_reached: 409,
  /** A service account of that name exists already. */
  service_account_exists: 409,
  /** Two people assigned the same call or thread at once: the other one won. */
  assignment_conflict: 409,
  length_required: 411,
  payload_too_large: 413,
  /** A bulk request naming more calls than one request may (LIMITS.bulkCalls): split it. */
  too_many_calls: 413,
  wrong_kind: 422,
  wrong_agent: 422,
  invalid_resume_data: 422,
  invalid_suggestion: 422,
  /** "Approve and trust" that would approve what a rule guards (rated high or critical, or several approvers), or a call without a resource. */
  trust_refused: 422,
  user_admin: 422,
  confirmation_required: 428,
  rate_limited: 429,
  internal: 500,
  unknown_agent: 502,
  agent_failed: 502,
  /** The Slack endpoints on a console without SLACK_SIGNING_SECRET. */
  slack_not_configured: 503,
  /** GET /api/admin/evidence on a console without EVIDENCE_SIGNING_KEY (lib/audit/evidence-signature.ts). */
  evidence_not_configured: 503,
  /** server.mjs's line was full or this request waited in it too long (lib/http/admission.mjs); nothing ran. */
  server_busy: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A code the server did not send (the browser could not reach it). */
export type ClientErrorCode = ErrorCode | "network";

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/**
 * Codes that mean the call is no longer there to decide: somebody (or something) decided first, or
 * the run finished. The 404/409 rows of the table that a decision can answer with.
 */
export const GONE_CODES: ReadonlySet<ClientErrorCode> = new Set<ErrorCode>(["run_not_found", "tool_call_not_pending", "already_decided"]);

/** The base of the console's own errors: a code from the table and a message for a person. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
