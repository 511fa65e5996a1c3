/**
 * Changes to who may use the console, written to the audit log beside the decisions so they are
 * under the same hash chain: access given (an API token or a service account created, a user created,
 * a role changed) and taken (a token revoked, a service account disabled, or enabled again). Each is
 * written in the transaction that makes the change, and only when the change was made: a second
 * revoke of the same token, at the same moment on another instance, writes nothing. A user is the
 * one exception: better-auth creates it in a transaction of its own, and its row follows at once.
 */
import type { Role } from "../auth/roles.ts";
import type { AccessSubject } from "../auth/token-dto.ts";
import { appendAudit, auditCredentialOf, type AuditEntry } from "./log.ts";

/** The audit rows' `action`s of access changes (history.actions in the catalogs names each). */
export const ACCESS_CHANGES = [
  "create-token",
  "revoke-token",
  "create-service-account",
  "disable-service-account",
  "enable-service-account",
  "create-user",
  "change-role",
] as const;

export type AccessChange = (typeof ACCESS_CHANGES)[number];

export function isAccessChange(action: string): action is AccessChange {
  return (ACCESS_CHANGES as readonly string[]).includes(action);
}

/** Who made the change: an Actor of lib/auth/session.ts (or the command line's name for itself). */
type ChangedBy = { email: string; credential?: Parameters<typeof auditCredentialOf>[0] };

/** What changed: an English sentence for the log's readers, and the subject as data for the pages and the evidence. */
export type AccessChangeText = { message: string; subject: AccessSubject };

/**
 * The audit row of an access change: outcome `recorded` (it is in force at once), no run or call,
 * `message` saying what changed, `args` what it changed as JSON. Its token columns say which token
 * made the request, as on a decision.
 */
function accessChangeEntry(actor: ChangedBy, action: AccessChange, { message, subject }: AccessChangeText): AuditEntry {
  return {
    reviewer: actor.email,
    action,
    outcome: "recorded",
    runId: "",
    toolCallId: "",
    message,
    args: subject,
    ...auditCredentialOf(actor.credential),
  };
}

/**
 * The AccessRecorder (lib/auth/tokens.ts) lib/auth's access changes are given to write their row,
 * bound to who asks and what they change; it is called with the transaction, what changed and the time.
 */
export function accessRecorder(actor: ChangedBy, action: AccessChange) {
  return (db: Parameters<typeof appendAudit>[0], change: AccessChangeText, at: Date) =>
    appendAudit(db, accessChangeEntry(actor, action, change), at);
}

/**
 * A user's creation, written just after better-auth made the user (in a transaction of its own, which
 * this cannot join). `actor` is the admin, or for `npm run users:create` the command's own name.
 */
export function recordUserCreated(
  db: Parameters<typeof appendAudit>[0],
  actor: ChangedBy,
  user: { id: string; email: string; role: Role },
) {
  return appendAudit(
    db,
    accessChangeEntry(actor, "create-user", {
      message: `Created the user ${user.email} (${user.id}) with the role ${user.role}.`,
      subject: { kind: "user", id: user.id, email: user.email, role: user.role },
    }),
  );
}

/** The subject an access change's row keeps in `args`, or null (a row written before it was kept, or not an access change). */
export function accessSubjectOf(args: string | null): AccessSubject | null {
  if (!args) return null;
  try {
    const parsed = JSON.parse(args) as AccessSubject | null;
    return parsed && typeof parsed === "object" && typeof parsed.kind === "string" ? parsed : null;
  } catch {
    return null;
  }
}
