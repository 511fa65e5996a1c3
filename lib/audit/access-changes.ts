/**
 * Changes to who may use the API, written to the audit log beside the decisions so they are under
 * the same hash chain: an API token revoked, a service account disabled or enabled again. Each is
 * written in the transaction that makes the change, and only when the change was made: a second
 * revoke of the same token, at the same moment on another instance, writes nothing.
 */
import { appendAudit, auditCredentialOf, type AuditEntry } from "./log.ts";

/** The audit row's `action` (history.actions in the catalogs names each). */
export type AccessChange = "revoke-token" | "disable-service-account" | "enable-service-account";

/** Who made the change: an Actor of lib/auth/session.ts, which sits below this folder and is not imported. */
type ChangedBy = { email: string; credential?: Parameters<typeof auditCredentialOf>[0] };

/**
 * The audit row of an access change: outcome `recorded` (it is in force at once), no run or call,
 * `message` naming what changed. Its token columns say which token made the request, as on a decision.
 */
function accessChangeEntry(actor: ChangedBy, action: AccessChange, message: string): AuditEntry {
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

/**
 * The AccessRecorder (lib/auth/tokens.ts) lib/auth's access changes are given to write their row,
 * bound to who asks and what they change; it is called with the transaction, the sentence and the time.
 */
export function accessRecorder(actor: ChangedBy, action: AccessChange) {
  return (db: Parameters<typeof appendAudit>[0], message: string, at: Date) =>
    appendAudit(db, accessChangeEntry(actor, action, message), at);
}
