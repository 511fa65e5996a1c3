/**
 * The audit log: append-only records of every decision, each of its transitions, and every refused
 * attempt. Written in the same transaction as the change it describes, so it never disagrees with
 * the decisions table.
 */
import { sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { Db } from "../db/client.ts";
import { toStorableText } from "../safe-text.ts";
import { contentHash } from "./chain.ts";

export type AuditOutcome =
  /** A decision was recorded and will be carried out; or an access change made (lib/audit/access-changes.ts). */
  | "recorded"
  /** One reviewer's approval of a call that needs several (lib/decisions/approvals.ts); the N-th records the decision. */
  | "approved"
  /** The agent carried the decision out. */
  | "applied"
  /** The call waited longer than its expiry rule allows and was declined through the agent. */
  | "expired"
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
  | "conflict"
  /** The call stopped waiting without a decision in this console: decided elsewhere (lib/decisions/outside.ts). */
  | "decided-outside";

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
  /** The bulk request this entry belongs to (lib/decisions/bulk.ts); null for a decision made on its own. */
  batchId?: string | null;
  /** Whom the call was assigned to (lib/assignments), when it had an assignee. */
  assignee?: string | null;
  /** Where the decision was made: console (its pages), api (the JSON API), slack (a Slack button); null for the console's own. */
  via?: DecisionVia | null;
  /** The API token behind the request (lib/auth/token-check.ts), and how its caller authenticated. */
  tokenId?: string | null;
  tokenName?: string | null;
  authMethod?: string | null;
  /** The digest of the arguments the reviewer decided on (lib/audit/args-digest.ts). */
  argsDigest?: string | null;
  /** "shown": the request carried the digest the reviewer's page or client showed; "read": the server read it when deciding. */
  argsDigestFrom?: ArgsDigestFrom | null;
}

/** What an audit row says about how its caller authenticated: from the actor's credential (lib/auth/session.ts). */
export type AuditCredential = Pick<AuditEntry, "tokenId" | "tokenName" | "authMethod">;

export function auditCredentialOf(credential: { method: string; token?: { id: string; name: string } } | undefined): AuditCredential {
  if (!credential) return {};
  return { authMethod: credential.method, tokenId: credential.token?.id ?? null, tokenName: credential.token?.name ?? null };
}

export type ArgsDigestFrom = "shown" | "read";

export type DecisionVia = "console" | "api" | "slack";

type AuditWriter = Pick<Db, "auditEvent">;

/**
 * Caps what one audit row keeps of free-form values, so a hostile request cannot bloat the log. A
 * recorded decision keeps what was decided (already bounded by validation); a refusal keeps only a
 * preview of what was refused, and ids no longer than any valid id.
 */
const MAX_TEXT = 64 * 1024;
const MAX_REFUSED_TEXT = 1024;
const MAX_ID = 256;

export function appendAudit(db: AuditWriter, entry: AuditEntry, at: Date = new Date()) {
  return db.auditEvent.create({ data: auditRow(entry, at) });
}

/**
 * The same row as appendAudit's, as one raw INSERT: for a transaction of raw statements
 * (statementTransaction in @agent-approvals/mastra-store), where a decision's last move is written.
 * With `from` (PostgreSQL only: `FROM moved`, a CTE of the same statement), the row is written once
 * per row of it: only if the change it describes was made.
 */
export function auditInsert(entry: AuditEntry, at: Date = new Date(), from?: Sql): Sql {
  const row = auditRow(entry, at);
  const values = sql`${row.at}, ${row.reviewer}, ${row.action}, ${row.outcome}, ${row.code}, ${row.runId}, ${row.toolCallId}, ${row.agentId}, ${row.threadId}, ${row.resourceId}, ${row.toolName}, ${row.args}, ${row.resumeData}, ${row.reason}, ${row.answer}, ${row.message}, ${row.decisionId}, ${row.batchId}, ${row.assignee}, ${row.via}, ${row.tokenId}, ${row.tokenName}, ${row.authMethod}, ${row.argsDigest}, ${row.argsDigestFrom}, ${row.contentHash}`;
  return sql`INSERT INTO audit_events (at, reviewer, action, outcome, code, run_id, tool_call_id, agent_id, thread_id, resource_id, tool_name, args, resume_data, reason, answer, message, decision_id, batch_id, assignee, via, token_id, token_name, auth_method, args_digest, args_digest_from, content_hash)
    ${from ? sql`SELECT ${values} ${from}` : sql`VALUES (${values})`}`;
}

/**
 * An audit row, its free-form values capped, with the hash of its content (lib/audit/chain.ts): the
 * database's trigger chains it to the row before in the same transaction.
 */
function auditRow(entry: AuditEntry, at: Date) {
  const row = cappedRow(entry, at);
  return { ...row, contentHash: contentHash(row) };
}

function cappedRow(entry: AuditEntry, at: Date) {
  const refused = entry.outcome === "refused" || entry.outcome === "conflict";
  const text = (value: string | null | undefined) => clip(value, refused ? MAX_REFUSED_TEXT : MAX_TEXT);
  const id = (value: string | null | undefined) => clip(value, MAX_ID);
  const json = (value: unknown) => (value === undefined ? null : text(JSON.stringify(value) ?? null));
  return {
    at,
    reviewer: id(entry.reviewer) ?? "unknown",
    action: id(entry.action) ?? "unknown",
    outcome: entry.outcome,
    code: id(entry.code),
    runId: id(entry.runId) ?? "",
    toolCallId: id(entry.toolCallId) ?? "",
    agentId: id(entry.agentId),
    threadId: id(entry.threadId),
    resourceId: id(entry.resourceId),
    toolName: id(entry.toolName),
    args: json(entry.args),
    resumeData: json(entry.resumeData),
    reason: text(entry.reason),
    answer: text(entry.answer),
    message: text(entry.message),
    decisionId: id(entry.decisionId),
    batchId: id(entry.batchId),
    assignee: id(entry.assignee),
    via: entry.via ?? null,
    tokenId: id(entry.tokenId),
    tokenName: id(entry.tokenName),
    authMethod: id(entry.authMethod),
    argsDigest: id(entry.argsDigest),
    argsDigestFrom: entry.argsDigestFrom ?? null,
  };
}

/** At most `max` characters, storable on both databases whatever the request held. */
function clip(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  const text = value.length > max ? `${value.slice(0, max)}… [${value.length - max} more characters]` : value;
  return toStorableText(text);
}
