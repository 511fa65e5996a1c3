/**
 * Changes to who may use the API, written to the audit log beside the decisions so they are under
 * the same hash chain: an API token revoked, a service account disabled or enabled again. Each is
 * written in the transaction that makes the change, and only when the change was made: a second
 * revoke of the same token, at the same moment on another instance, writes nothing.
 */
import { appendAudit, auditCredentialOf, type AuditEntry } from "./log.ts";

export const ACCESS_CHANGES = ["revoke-token", "disable-service-account", "enable-service-account"] as const;
export type AccessChange = (typeof ACCESS_CHANGES)[number];

/** Who made the change (an Actor of lib/auth/session.ts; lib/auth imports this folder, not the reverse). */
type ChangedBy = { email: string; credential?: Parameters<typeof auditCredentialOf>[0] };

/**
 * The audit row of an access change: outcome `recorded` (it is in force at once), no run or call,
 * `message` naming what changed. Its token columns say which token made the request, as on a decision.
 */
export function accessChangeEntry(actor: ChangedBy, action: AccessChange, message: string): AuditEntry {
  return {
    reviewer: actor.email,
    action,
    outcome: "recorded",
    runId: "",
    toolCallId: "",
    message,
    ...auditCredentialOf(actor.credential),
  };
}

export function recordAccessChange(
  db: Parameters<typeof appendAudit>[0],
  actor: ChangedBy,
  action: AccessChange,
  message: string,
  at: Date,
) {
  return appendAudit(db, accessChangeEntry(actor, action, message), at);
}
