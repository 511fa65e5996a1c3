/**
 * The hourly digest: per user, at most one email an hour holding every call queued for it since
 * the previous one. A user's digest is due once the oldest queued call has waited its hour
 * (lib/notifications/queue.ts) and the previous digest is an hour old. One console instance at a
 * time sends it: it claims the user with a lease on their preference row (a conditional UPDATE,
 * like a delivery's), so two instances never send two digests. The digest lists the calls still
 * waiting, then those decided in the console meanwhile as "already decided"; when every one of them
 * was decided, nothing is sent. A failed send is retried with the outbox's backoff, the calls kept.
 */
import type { Db } from "../db/client.ts";
import { EMAIL_LEASE_MS, outcome, type Outcome } from "./attempts.ts";
import { callKey, decidedCalls, notifiedCall, recipient } from "./calls.ts";
import type { MailSettings } from "./mail-config.ts";
import { digestEmail, type NotifiedCall } from "./message.ts";
import { DIGEST_EVERY_MS } from "./queue.ts";
import { sendEmail } from "./transport.ts";

const BATCH = 20;

const free = (now: Date) => ({ OR: [{ digestLeaseUntil: null }, { digestLeaseUntil: { lt: now } }] });
const hourSinceLast = (now: Date) => ({
  OR: [{ digestSentAt: null }, { digestSentAt: { lte: new Date(now.getTime() - DIGEST_EVERY_MS) } }],
});

/** Sends the digests due at `now`; returns how many were attempted. */
export async function sendDueDigests(db: Db, settings: MailSettings, now: Date): Promise<number> {
  const due = await db.emailNotification.findMany({
    where: { kind: "digest", state: "pending", nextAttemptAt: { lte: now } },
    distinct: ["userId"],
    select: { userId: true },
    take: BATCH,
  });
  let attempted = 0;
  for (const { userId } of due) attempted += await sendDigest(db, settings, userId, now);
  return attempted;
}

async function sendDigest(db: Db, settings: MailSettings, userId: string, now: Date): Promise<number> {
  const leaseUntil = new Date(now.getTime() + EMAIL_LEASE_MS);
  const { count } = await db.notificationPreference.updateMany({
    where: { userId, AND: [free(now), hourSinceLast(now)] },
    data: { digestLeaseUntil: leaseUntil },
  });
  if (count === 0) return 0; // another instance is sending it, or the last digest is less than an hour old
  // Every call queued for the user so far, whether or not its own hour is up: one email holds them all.
  const rows = await db.emailNotification.findMany({
    where: { userId, kind: "digest", state: "pending", createdAt: { lte: now } },
    orderBy: { createdAt: "asc" },
  });
  const events = await db.outboxEvent.findMany({ where: { id: { in: rows.map((row) => row.eventId) } } });
  const calls = uniqueCalls(events.map((event) => notifiedCall(event.payload)).filter((call) => call !== null));
  const decided = await decidedCalls(db, calls);
  const listed: NotifiedCall[] = calls.map((call) => ({ ...call, decided: decided.has(callKey(call)) }));
  const to = await recipient(db, userId);
  if (!to || listed.every((call) => call.decided)) {
    await settle(db, { userId, leaseUntil, rows, sent: false }, { state: "skipped" }, now);
    return 0;
  }
  const attempts = Math.max(...rows.map((row) => row.attempts)) + 1;
  const result = await sendEmail(settings, to.email, digestEmail(listed, now, to));
  await settle(db, { userId, leaseUntil, rows, sent: result.ok }, outcome(result, attempts, now), now);
  return 1;
}

/** A call both waiting and assigned to the user is listed once, as assigned. */
function uniqueCalls(calls: Array<Omit<NotifiedCall, "decided">>): Array<Omit<NotifiedCall, "decided">> {
  const byKey = new Map<string, Omit<NotifiedCall, "decided">>();
  for (const call of calls) {
    const known = byKey.get(callKey(call));
    if (!known || call.type === "call.assigned") byKey.set(callKey(call), call);
  }
  return [...byKey.values()];
}

/** Records the attempt for every call it carried and releases the user, only while the claim is still ours. */
async function settle(
  db: Db,
  digest: { userId: string; leaseUntil: Date; rows: Array<{ id: string }>; sent: boolean },
  result: Outcome,
  now: Date,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.notificationPreference.updateMany({
      where: { userId: digest.userId, digestLeaseUntil: digest.leaseUntil },
      data: { digestLeaseUntil: null, ...(digest.sent ? { digestSentAt: now } : {}) },
    });
    if (count === 0) return;
    const ids = digest.rows.map((row) => row.id);
    const updatedAt = new Date();
    const error = result.error?.slice(0, 1000) ?? null;
    if (result.state !== "pending") {
      await tx.emailNotification.updateMany({
        where: { id: { in: ids } },
        data: { state: result.state, ...(result.state === "skipped" ? {} : { attempts: { increment: 1 } }), lastError: error, updatedAt },
      });
      return;
    }
    await tx.emailNotification.updateMany({
      where: { id: { in: ids } },
      data: { attempts: { increment: 1 }, nextAttemptAt: result.retryAt, lastError: error, updatedAt },
    });
  });
}
