/** One round of the maintenance loop's event work (instrumentation.ts): announce, deliver, and now and then prune. */
import { recordWaitingCalls } from "../events/waiting.ts";
import { pruneOutbox } from "./retention.ts";
import { deliverDueWebhooks } from "./worker.ts";

const PRUNE_EVERY_MS = 3_600_000;
let lastPruned = 0;

export async function deliverEventsOnce(): Promise<void> {
  await recordWaitingCalls().catch((error: unknown) => console.error("[events] waiting calls failed:", error));
  await deliverDueWebhooks().catch((error: unknown) => console.error("[webhooks] delivery failed:", error));
  if (Date.now() - lastPruned < PRUNE_EVERY_MS) return;
  lastPruned = Date.now();
  await pruneOutbox().catch((error: unknown) => console.error("[events] pruning the outbox failed:", error));
}
