/**
 * Who is emailed about an event, decided where the event is emitted, in its transaction
 * (lib/events/outbox.ts calls this): one email_notifications row per (user, event). So a call is
 * never announced without its emails being queued, nor mailed about without being announced, and
 * the workers (lib/notifications/worker.ts, digest.ts) only send what is written here.
 *
 *  - call.waiting: every user who may decide (admin, reviewer), not banned, whose choice is not off;
 *  - call.assigned: the assignee alone, on the same conditions (an assignment does not override "off"),
 *    unless they took it themselves; a whole thread's assignment is one email, not one per call.
 *
 * `immediate` rows are due at once; `hourly` ones are queued for the user's digest, due an hour
 * after they were queued. With email off (SMTP_URL unset) nothing is queued.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../db/client.ts";
import { rolesWith } from "../auth/roles.ts";
import { emailEnabled } from "./mail-config.ts";

export const DIGEST_EVERY_MS = 3_600_000;

/** The event types that are emailed, and to whom: everyone who may decide, or the named users. */
const RECIPIENTS: Record<string, (data: Record<string, unknown>) => "deciders" | string[]> = {
  "call.waiting": () => "deciders",
  // Nobody is mailed about a call they took themselves; a thread's assignment is one email, with its first call.
  "call.assigned": (data) =>
    typeof data.assigneeId === "string" &&
    data.assigneeId &&
    data.assignedBy !== data.assigneeEmail &&
    (data.assignedWith !== "thread" || data.threadIndex === 0)
      ? [data.assigneeId]
      : [],
};

export const isEmailedEventType = (type: string): boolean => Object.hasOwn(RECIPIENTS, type);

/** A transaction client (or the client itself) that can read users and preferences and queue emails. */
export type NotificationWriter = Pick<Db, "user" | "notificationPreference" | "emailNotification">;

/** Queues the event's emails; returns how many. */
export async function queueEmailNotifications(
  tx: NotificationWriter,
  event: { id: string; type: string; data: Record<string, unknown> },
  now: Date,
): Promise<number> {
  const recipients = Object.hasOwn(RECIPIENTS, event.type) ? RECIPIENTS[event.type]!(event.data) : [];
  if (recipients.length === 0 || !emailEnabled()) return 0;
  const wanting = await tx.notificationPreference.findMany({
    where: { email: { in: ["immediate", "hourly"] }, ...(recipients === "deciders" ? {} : { userId: { in: recipients } }) },
    select: { userId: true, email: true },
  });
  if (wanting.length === 0) return 0;
  const deciders = await tx.user.findMany({
    where: { id: { in: wanting.map((row) => row.userId) }, role: { in: [...rolesWith("decide")] }, NOT: { banned: true } },
    select: { id: true },
  });
  const allowed = new Set(deciders.map((user) => user.id));
  const rows = wanting
    .filter((row) => allowed.has(row.userId))
    .map((row) => {
      const immediate = row.email === "immediate";
      return {
        id: randomUUID(),
        userId: row.userId,
        eventId: event.id,
        kind: immediate ? "immediate" : "digest",
        state: "pending",
        attempts: 0,
        nextAttemptAt: immediate ? now : new Date(now.getTime() + DIGEST_EVERY_MS),
        leaseUntil: null,
        createdAt: now,
        updatedAt: now,
      };
    });
  if (rows.length > 0) await tx.emailNotification.createMany({ data: rows });
  return rows.length;
}
