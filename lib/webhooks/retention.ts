/**
 * The outbox and the delivery log would otherwise grow with every call: events older than
 * `OUTBOX_KEPT_MS` are deleted with their deliveries and attempts and their emails
 * (email_notifications), unless a delivery of theirs is still pending (it is still being retried,
 * or an admin pressed Retry). An email's retries end within about a day, so an email still pending
 * after 30 days is one nobody will send (its user chose again, or is gone): it goes with its event.
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";

export const OUTBOX_KEPT_MS = 30 * 24 * 3_600_000;
const BATCH = 500;

/** Deletes up to a batch of expired events; returns how many. */
export async function pruneOutbox({ databaseUrl = databaseUrlFromEnv(), now = new Date() } = {}): Promise<number> {
  const db = await getDb(databaseUrl);
  const old = await db.outboxEvent.findMany({
    where: { createdAt: { lt: new Date(now.getTime() - OUTBOX_KEPT_MS) } },
    select: { id: true },
    take: BATCH,
  });
  if (old.length === 0) return 0;
  const pending = await db.webhookDelivery.findMany({
    where: { eventId: { in: old.map((event) => event.id) }, state: "pending" },
    select: { eventId: true },
  });
  const keep = new Set(pending.map((delivery) => delivery.eventId));
  const ids = old.map((event) => event.id).filter((id) => !keep.has(id));
  if (ids.length === 0) return 0;
  await db.$transaction(async (tx) => {
    const deliveries = await tx.webhookDelivery.findMany({ where: { eventId: { in: ids } }, select: { id: true } });
    await tx.webhookAttempt.deleteMany({ where: { deliveryId: { in: deliveries.map((delivery) => delivery.id) } } });
    await tx.webhookDelivery.deleteMany({ where: { eventId: { in: ids } } });
    await tx.emailNotification.deleteMany({ where: { eventId: { in: ids } } });
    await tx.outboxEvent.deleteMany({ where: { id: { in: ids } } });
  });
  return ids.length;
}
