/**
 * The audit log: append-only records of every decision, each of its transitions, and every refused
 * attempt. Written in the same transaction as the change it describes, so it never disagrees with
 * the decisions table.
 */
import type { Db } from "../db/client.ts";

export type AuditOutcome =
  /** A decision was recorded and will be carried out. */
  | "recorded"
  /** The agent carried the decision out. */
  | "applied"
  /** The agent could not carry it out. */
  | "failed"
  /** A failed or interrupted decision no longer holds the call: it is decidable again. */
  | "released"
  /** The server stopped while the agent was carrying the decision out. */
  | "interrupted"
  /** Recovery took over a decision whose server stopped. */
  | "recovered"
  /** The request was invalid or the run/call was not decidable. */
  | "refused"
  /** Somebody else had already decided this call. */
  | "conflict";

export interface AuditEntry {
  reviewer: string;
  action: string;
  outcome: AuditOutcome;
  code?: string;
  runId: string;
  toolCallId: string;
  agentId?: string | null;
  threadId?: string | null;
  resourceId?: string | null;
  toolName?: string | null;
  args?: unknown;
  resumeData?: unknown;
  reason?: string | null;
  answer?: string | null;
  message?: string | null;
  decisionId?: string | null;
}

type AuditWriter = Pick<Db, "auditEvent">;

/** Caps what one audit row keeps of free-form values, so a hostile request cannot bloat the log. */
const MAX_TEXT = 64 * 1024;

export function appendAudit(db: AuditWriter, entry: AuditEntry, at: Date = new Date()) {
  return db.auditEvent.create({
    data: {
      at,
      reviewer: clip(entry.reviewer) ?? "unknown",
      action: clip(entry.action) ?? "unknown",
      outcome: entry.outcome,
      code: entry.code ?? null,
      runId: clip(entry.runId) ?? "",
      toolCallId: clip(entry.toolCallId) ?? "",
      agentId: entry.agentId ?? null,
      threadId: entry.threadId ?? null,
      resourceId: entry.resourceId ?? null,
      toolName: entry.toolName ?? null,
      args: entry.args === undefined ? null : clip(JSON.stringify(entry.args)),
      resumeData: entry.resumeData === undefined ? null : clip(JSON.stringify(entry.resumeData)),
      reason: clip(entry.reason),
      answer: clip(entry.answer),
      message: clip(entry.message),
      decisionId: entry.decisionId ?? null,
    },
  });
}

function clip(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… [${text.length - MAX_TEXT} more characters]` : text;
}
