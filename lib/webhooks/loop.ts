/** One round of the maintenance loop's event work (instrumentation.ts): announce, then deliver. */
import { recordWaitingCalls } from "../events/waiting.ts";
import { deliverDueWebhooks } from "./worker.ts";

export async function deliverEventsOnce(): Promise<void> {
  await recordWaitingCalls().catch((error: unknown) => console.error("[events] waiting calls failed:", error));
  await deliverDueWebhooks().catch((error: unknown) => console.error("[webhooks] delivery failed:", error));
}
