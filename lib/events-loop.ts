/**
 * One round of the maintenance loop's event work (instrumentation.ts): announce the calls that
 * started waiting, send due webhooks and emails, and now and then prune the outbox. Outside lib/'s
 * folders on purpose: it runs lib/events, lib/webhooks and lib/notifications, which import each
 * other in one direction only.
 */
import { recordWaitingCalls } from "./events/waiting.ts";
import { sendDueEmails } from "./notifications/worker.ts";
import { pruneOutbox } from "./webhooks/retention.ts";
import { deliverDueWebhooks } from "./webhooks/worker.ts";

const PRUNE_EVERY_MS = 3_600_000;
let lastPruned = 0;

export async function deliverEventsOnce(): Promise<void> {
  await recordWaitingCalls().catch((error: unknown) => console.error("[events] waiting calls failed:", error));
  await deliverDueWebhooks().catch((error: unknown) => console.error("[webhooks] delivery failed:", error));
  await sendDueEmails().catch((error: unknown) => console.error("[email] sending failed:", error));
  if (Date.now() - lastPruned < PRUNE_EVERY_MS) return;
  lastPruned = Date.now();
  await pruneOutbox().catch((error: unknown) => console.error("[events] pruning the outbox failed:", error));
}
