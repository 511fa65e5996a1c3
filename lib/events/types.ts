/** The events the console announces (lib/events/outbox.ts). Browser-safe: the admin page lists them. */
export const EVENT_TYPES = [
  /** A tool call started waiting for a reviewer (lib/events/waiting.ts). */
  "call.waiting",
  /**
   * A waiting call was given to one reviewer to decide, by themselves or an admin
   * (lib/assignments/assignments.ts). Its data:
   * runId, toolCallId, toolName, agentId, threadId, resourceId, waitingSince, assigneeId (the
   * better-auth user id), assigneeEmail, assignedBy. The assignee alone is emailed about it.
   */
  "call.assigned",
  /**
   * A console decision reached applied, failed or released (lib/decisions/ledger.ts), or a call was
   * found decided outside the console (lib/decisions/outside.ts): `decidedBy` says which.
   */
  "call.decided",
  /** A pending call waited longer than its review target: its risk's, else REVIEW_SLA_MINUTES (lib/announcements/overdue.ts). */
  "call.overdue",
  /** A call expires in its rule's `warnMinutes` (lib/announcements/expiring.ts). */
  "call.expiring",
  /** A call expired without a reviewer: declined through its agent, or marked (`mode`; lib/decisions/expire.ts). */
  "call.expired",
  /**
   * The audit log's head, every AUDIT_CHECKPOINT_MINUTES (lib/audit/checkpoint.ts): data seq (its
   * last row's place in the hash chain), hash (that row's hash), at. Kept outside the database, it
   * proves the log up to it was not rewritten since: `npm run audit:verify -- --checkpoint seq:hash`.
   */
  "audit.checkpoint",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Who decided, in `call.decided` and `call.expired`: a person in the console (or recovery carrying
 * their decision out), the console's expiry rule, or somebody outside the console (Mastra Studio,
 * the team's code, their server), whom the console only saw the call leave. "rule": a rule decided
 * it (lib/rules/auto-decide.ts); the event then carries ruleId and ruleVersion, and `reviewer` is
 * "rule '<name>' (version N)". A call approved by a reviewer's one-time suggestion (lib/suggestions)
 * is "console", its `reviewer` "suggestion by <email>".
 */
export type DecidedBy = "console" | "expiry" | "rule" | "outside";

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);
