/**
 * The review target: how long a call may wait for a person before it is overdue
 * (`REVIEW_SLA_MINUTES`, lib/numeric-settings.mjs). Read on the server; the pages hand it to the browser.
 */
import { numericSetting } from "../numeric-settings.mjs";

/** The configured target in minutes. A value outside its range stops the console at start, so it never stands in for one here. */
export function reviewSlaMinutes(env: Record<string, string | undefined> = process.env): number {
  return numericSetting("REVIEW_SLA_MINUTES", env);
}

/** Calls waiting since before this instant are overdue. */
export function overdueCutoff(now: Date = new Date(), minutes: number = reviewSlaMinutes()): Date {
  return new Date(now.getTime() - minutes * 60_000);
}
