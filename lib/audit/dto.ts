/**
 * One entry of the decision history as the console shows it: our own shape, not a generated
 * client's row type (the SQLite client's types are wrong on PostgreSQL). Browser-safe.
 */
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
}
