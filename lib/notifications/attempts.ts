/** What one attempt at sending an email (single or digest) means for what it carried. */
import { MAX_ATTEMPTS, retryDelayMs } from "../retry-schedule.ts";
import type { SendResult } from "./transport.ts";

/** Longer than one attempt can take (the transport's time limits), so a live worker keeps its claim. */
export const EMAIL_LEASE_MS = 60_000;

export type Outcome =
  | { state: "sent" | "skipped"; error?: undefined }
  | { state: "failed"; error: string }
  | { state: "pending"; retryAt: Date; error: string };

/** Sent; or another try after the outbox's backoff (lib/retry-schedule.ts); or, after the last, failed for good. */
export function outcome(result: SendResult, attempts: number, now: Date): Outcome {
  if (result.ok) return { state: "sent" };
  if (attempts >= MAX_ATTEMPTS) return { state: "failed", error: result.error };
  return { state: "pending", retryAt: new Date(now.getTime() + retryDelayMs(attempts)), error: result.error };
}
