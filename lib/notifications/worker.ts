/**
 * The email worker, run from every console instance's maintenance loop (lib/events-loop.ts). Emails
 * queued as `immediate` are claimed one by one with a lease, exactly like webhook deliveries
 * (lib/webhooks/worker.ts): a conditional UPDATE, so two instances never send the same email;
 * a failed attempt is retried with the outbox's backoff (lib/retry-schedule.ts) for about a day,
 * then marked failed. Hourly digests are lib/notifications/digest.ts. Email off: nothing to do.
 */
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { EMAIL_LEASE_MS, outcome, type Outcome } from "./attempts.ts";
import { callKey, decidedCalls, notifiedCall, recipient } from "./calls.ts";
import { sendDueDigests } from "./digest.ts";
import { mailSettings, type MailSettings } from "./mail-config.ts";
import { callEmail } from "./message.ts";
import { sendEmail } from "./transport.ts";

const BATCH = 20;

const dueWhere = (now: Date) => ({
  state: "pending",
  kind: "immediate",
  nextAttemptAt: { lte: now },
  OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
});

/**
 * Sends every email due at `now`, single ones and digests (a test moves `now` forward instead of
 * waiting); returns how many emails were attempted.
 */
export async function sendDueEmails({ databaseUrl = databaseUrlFromEnv(), now = new Date() } = {}): Promise<number> {
  const settings = mailSettings();
  if (!settings) return 0;
  const db = await getDb(databaseUrl);
  return (await sendDueImmediateEmails(db, settings, now)) + (await sendDueDigests(db, settings, now));
}

async function sendDueImmediateEmails(db: Db, settings: MailSettings, now: Date): Promise<number> {
  const due = await db.emailNotification.findMany({
    where: dueWhere(now),
    orderBy: { nextAttemptAt: "asc" },
    take: BATCH,
    select: { id: true },
  });
  const sent = await Promise.all(
    due.map(async ({ id }) => {
      const leaseUntil = new Date(now.getTime() + EMAIL_LEASE_MS);
      const { count } = await db.emailNotification.updateMany({ where: { id, ...dueWhere(now) }, data: { leaseUntil } });
      if (count === 0) return 0; // another instance claimed it first
      const row = await db.emailNotification.findUniqueOrThrow({ where: { id } });
      const event = await db.outboxEvent.findUnique({ where: { id: row.eventId } });
      const call = event ? notifiedCall(event.payload) : null;
      const to = await recipient(db, row.userId);
      // Nothing to say, nobody to say it to, or the call was decided before its email could go.
      if (!call || !to || (await decidedCalls(db, [call])).has(callKey(call))) {
        await settle(db, { id, leaseUntil, attempts: row.attempts }, { state: "skipped" }, now);
        return 0;
      }
      const result = await sendEmail(settings, to.email, callEmail({ ...call, decided: false }, now, to));
      await settle(db, { id, leaseUntil, attempts: row.attempts + 1 }, outcome(result, row.attempts + 1, now), now);
      return 1;
    }),
  );
  return sent.reduce<number>((sum, one) => sum + one, 0);
}

/** Records the attempt, only while the claim is still ours. */
async function settle(db: Db, row: { id: string; leaseUntil: Date; attempts: number }, result: Outcome, now: Date): Promise<void> {
  await db.emailNotification.updateMany({
    where: { id: row.id, leaseUntil: row.leaseUntil },
    data: {
      state: result.state,
      attempts: row.attempts,
      leaseUntil: null,
      nextAttemptAt: result.state === "pending" ? result.retryAt : now,
      lastError: result.error?.slice(0, 1000) ?? null,
      updatedAt: new Date(),
    },
  });
}
