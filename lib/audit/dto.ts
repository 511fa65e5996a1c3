/**
 * One entry of the decision history as the console shows it: our own shape, not a generated
 * client's row type (the SQLite client's types are wrong on PostgreSQL). Browser-safe.
 */
import type { AccessSubject } from "../auth/token-dto.ts";

export interface AuditEventDto {
  id: number;
  at: Date;
  reviewer: string;
  action: string;
  outcome: string;
  code: string | null;
  runId: string;
  toolCallId: string;
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
  toolName: string | null;
  args: string | null;
  resumeData: string | null;
  reason: string | null;
  answer: string | null;
  message: string | null;
  decisionId: string | null;
  /** The bulk request the entry belongs to, if it came with one. */
  batchId: string | null;
  /** Whom the call was assigned to when this was recorded (null: nobody). */
  assignee: string | null;
  /** Where it was decided: console, api, slack (null: the console's own, or before this was kept). */
  via: string | null;
  /** The API token that made it, by its name then (null: none; lib/auth/token-check.ts). */
  tokenName: string | null;
}

/**
 * One row of the history page: a decision with its states in order (recorded → applied, or failed,
 * released, interrupted, recovered…), or a refused attempt or conflict on its own. Browser-safe.
 */
export interface HistoryEntryDto {
  /** access: a change to who may use the console (lib/audit/access-changes.ts), not a decision. */
  kind: "decision" | "attempt" | "access";
  /** The row's first event: the decision's `recorded`, or the refusal itself. */
  head: AuditEventDto;
  /** Every event of the decision, oldest first; for an attempt, just its head. */
  timeline: AuditEventDto[];
  /**
   * The agent and tool of the call, when the head's row does not name them (refusals written before
   * they were looked up) but another entry of the same call does.
   */
  agentId: string | null;
  toolName: string | null;
  /** An access change's subject (what was given or taken), when its row keeps it. */
  access?: AccessSubject | null;
}
