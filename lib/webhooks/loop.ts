/**
 * One round of the maintenance loop's event work (instrumentation.ts): announce, deliver, and now and
 * then prune. Calls crossing a time (overdue, about to expire) are looked for every
 * ANNOUNCE_EVERY_MS, not every round: a few seconds late is on time for a target counted in minutes.
 */
import { getDb } from "../db/client.ts";
import { pruneAnnouncements } from "../announcements/record.ts";
import { announceExpiringCalls } from "../announcements/expiring.ts";
import { announceOverdueCalls } from "../announcements/overdue.ts";
import { recordWaitingCalls } from "../events/waiting.ts";
import { pruneOutbox } from "./retention.ts";
import { deliverDueWebhooks } from "./worker.ts";

const PRUNE_EVERY_MS = 3_600_000;
const ANNOUNCE_EVERY_MS = 10_000;
let lastPruned = 0;
let lastAnnounced = 0;

export async function deliverEventsOnce(): Promise<void> {
  await recordWaitingCalls().catch((error: unknown) => console.error("[events] waiting calls failed:", error));
  if (Date.now() - lastAnnounced >= ANNOUNCE_EVERY_MS) {
    lastAnnounced = Date.now();
    await announceOverdueCalls().catch((error: unknown) => console.error("[events] overdue calls failed:", error));
    await announceExpiringCalls().catch((error: unknown) => console.error("[events] expiring calls failed:", error));
  }
  await deliverDueWebhooks().catch((error: unknown) => console.error("[webhooks] delivery failed:", error));
  if (Date.now() - lastPruned < PRUNE_EVERY_MS) return;
  lastPruned = Date.now();
  await pruneOutbox().catch((error: unknown) => console.error("[events] pruning the outbox failed:", error));
  await pruneAnnouncements(await getDb()).catch((error: unknown) => console.error("[events] pruning announcements failed:", error));
}
