/**
 * The delivery worker, run from every console instance's maintenance loop (lib/server-work.ts): it
 * claims due deliveries with a lease (a conditional UPDATE, like a decision) so two instances never
 * send one delivery at once, sends each (Standard Webhooks signature, or a Slack message), records
 * the attempt, and schedules the next one with exponential backoff for about a day. A delivery whose
 * worker died is taken over when its lease expires: at least once, never twice at the same time.
 */
import { Webhook } from "standardwebhooks";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import type { EventPayload } from "../events/outbox.ts";
import { MAX_ATTEMPTS, retryDelayMs } from "../retry-schedule.ts";
import { postWebhook, type AttemptResult } from "./send.ts";
import { endpointLocale } from "./endpoints.ts";
import { slackMessage, waitingCallOf } from "./slack.ts";

/** Longer than one attempt can take (its 10 s time limit), so a live worker never loses its claim. */
const LEASE_MS = 60_000;
const BATCH = 20;

const dueWhere = (now: Date) => ({
  state: "pending",
  nextAttemptAt: { lte: now },
  OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
});

/**
 * Sends every delivery that is due at `now` (a test moves `now` forward instead of waiting); returns
 * how many attempts were made.
 */
export async function deliverDueWebhooks({ databaseUrl = databaseUrlFromEnv(), now = new Date() } = {}): Promise<number> {
  const db = await getDb(databaseUrl);
  const enabled = await db.webhookEndpoint.findMany({ where: { enabled: true } });
  if (enabled.length === 0) return 0;
  const due = await db.webhookDelivery.findMany({
    where: { ...dueWhere(now), endpointId: { in: enabled.map((endpoint) => endpoint.id) } },
    orderBy: { nextAttemptAt: "asc" },
    take: BATCH,
    select: { id: true },
  });
  const endpoints = new Map(enabled.map((endpoint) => [endpoint.id, endpoint]));
  const attempts = await Promise.all(
    due.map(async ({ id }) => {
      const leaseUntil = new Date(now.getTime() + LEASE_MS);
      const { count } = await db.webhookDelivery.updateMany({ where: { id, ...dueWhere(now) }, data: { leaseUntil } });
      if (count === 0) return 0; // another instance claimed it first
      const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id } });
      const event = await db.outboxEvent.findUniqueOrThrow({ where: { id: delivery.eventId } });
      const result = await attempt(endpoints.get(delivery.endpointId)!, event, databaseUrl);
      await recordAttempt(db, delivery, leaseUntil, result, now);
      return 1;
    }),
  );
  return attempts.reduce<number>((sum, one) => sum + one, 0);
}

type Endpoint = Awaited<ReturnType<Db["webhookEndpoint"]["findMany"]>>[number];
type OutboxEvent = Awaited<ReturnType<Db["outboxEvent"]["findUniqueOrThrow"]>>;
type Delivery = Awaited<ReturnType<Db["webhookDelivery"]["findUniqueOrThrow"]>>;

/** One POST: the signed event, or for Slack the Block Kit message (Slack's URL is the secret; unsigned). */
async function attempt(endpoint: Endpoint, event: OutboxEvent, databaseUrl: string): Promise<AttemptResult> {
  if (endpoint.slack) {
    const payload = JSON.parse(event.payload) as EventPayload;
    const call = await waitingCallOf(payload, databaseUrl);
    return postWebhook(endpoint.url, JSON.stringify(slackMessage(payload, { call, locale: endpointLocale(endpoint) })), {});
  }
  // Signed at sending time: receivers reject a timestamp more than a few minutes off their clock.
  const sentAt = new Date();
  const signature = new Webhook(endpoint.secret).sign(event.id, sentAt, event.payload);
  return postWebhook(endpoint.url, event.payload, {
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": signature,
  });
}

/** The attempt and what it means for the delivery, together, and only while the claim is still ours. */
async function recordAttempt(db: Db, delivery: Delivery, leaseUntil: Date, result: AttemptResult, now: Date): Promise<void> {
  const attempts = delivery.attempts + 1;
  const state = result.ok ? "delivered" : attempts >= MAX_ATTEMPTS ? "failed" : "pending";
  await db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, leaseUntil },
      data: {
        state,
        attempts,
        leaseUntil: null,
        nextAttemptAt: state === "pending" ? new Date(now.getTime() + retryDelayMs(attempts)) : now,
        updatedAt: new Date(),
      },
    });
    if (count === 0) return;
    await tx.webhookAttempt.create({
      data: {
        deliveryId: delivery.id,
        at: new Date(),
        ok: result.ok,
        responseCode: result.responseCode,
        error: result.error?.slice(0, 1000) ?? null,
        durationMs: result.durationMs,
      },
    });
  });
}

/**
 * The admin's Retry: the delivery is due again now, whatever its state, unless it is being sent right
 * now. With `endpointId`, only a delivery of that endpoint (the URL a request names it by).
 */
export async function retryDelivery(
  deliveryId: string,
  databaseUrl: string = databaseUrlFromEnv(),
  { endpointId }: { endpointId?: string } = {},
): Promise<boolean> {
  const db = await getDb(databaseUrl);
  const now = new Date();
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, ...(endpointId ? { endpointId } : {}), OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { state: "pending", nextAttemptAt: now, leaseUntil: null, updatedAt: now },
  });
  return count === 1;
}
