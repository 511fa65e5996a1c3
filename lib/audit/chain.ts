/**
 * The audit log's hash chain: what each row's hashes cover, in one place. A writer computes the
 * row's content hash (auditRow in log.ts); the database's trigger (migration `audit_chain`) gives
 * the row the next place in the chain and its hash, sha256("<seq>\n<hash of the row before>\n<content
 * hash>"), in the row's own transaction. verify.ts recomputes both from the stored columns alone.
 */
import { createHash } from "node:crypto";

/**
 * The columns the content hash covers, as the row's field → its column. A column whose value is
 * null is left out of the hash, so adding a nullable column here leaves every earlier row's hash
 * as it was: the one change that puts a new column under the chain.
 */
export const CHAINED_COLUMNS = {
  at: "at",
  reviewer: "reviewer",
  action: "action",
  outcome: "outcome",
  code: "code",
  runId: "run_id",
  toolCallId: "tool_call_id",
  agentId: "agent_id",
  threadId: "thread_id",
  resourceId: "resource_id",
  toolName: "tool_name",
  args: "args",
  resumeData: "resume_data",
  reason: "reason",
  answer: "answer",
  message: "message",
  decisionId: "decision_id",
  batchId: "batch_id",
  assignee: "assignee",
  via: "via",
  tokenId: "token_id",
  tokenName: "token_name",
  authMethod: "auth_method",
  argsDigest: "args_digest",
  argsDigestFrom: "args_digest_from",
} as const;

export type ChainedField = keyof typeof CHAINED_COLUMNS;
export type ChainedContent = { [K in ChainedField]?: string | Date | null };

/** The hash before the first row of the chain (the head the migration starts from). */
export const GENESIS_HASH = "0".repeat(64);

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The hex SHA-256 of the row's chained columns: a JSON object of the non-null ones, in CHAINED_COLUMNS' order, times as ISO 8601 UTC. */
export function contentHash(row: ChainedContent): string {
  const covered: Record<string, string> = {};
  for (const field of Object.keys(CHAINED_COLUMNS) as ChainedField[]) {
    const value = row[field];
    if (value === null || value === undefined) continue;
    covered[field] = value instanceof Date ? value.toISOString() : value;
  }
  return sha256Hex(JSON.stringify(covered));
}

/** A row's own hash, as the trigger computes it. */
export function linkHash(seq: number, prevHash: string, content: string): string {
  return sha256Hex(`${seq}\n${prevHash}\n${content}`);
}
