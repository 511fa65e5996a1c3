/**
 * How the outbox's workers (webhook deliveries, emails) retry a failed attempt: exponential backoff
 * for about a day, then they give up and mark it failed. One schedule, so both read the same in the docs.
 */

const FIRST_RETRY_MS = 10_000;
const LONGEST_WAIT_MS = 6 * 3_600_000;
/** 10 s, 30 s, 1.5 min, … up to 6 h between attempts: the 12th and last comes about 28 h after the first. */
export const MAX_ATTEMPTS = 12;

/** How long to wait after the `attempts`-th failed attempt. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 3 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);
}
