/**
 * The review target: how long a call may wait for a person before it is overdue
 * (`REVIEW_SLA_MINUTES`, default 60). Read on the server; the pages hand it to the browser.
 */
export const DEFAULT_REVIEW_SLA_MINUTES = 60;

/** The configured target in minutes; a value that is not a positive whole number falls back to the default, once said. */
export function reviewSlaMinutes(env: Record<string, string | undefined> = process.env): number {
  const raw = env.REVIEW_SLA_MINUTES?.trim();
  if (!raw) return DEFAULT_REVIEW_SLA_MINUTES;
  const minutes = Number(raw);
  if (Number.isInteger(minutes) && minutes > 0 && minutes <= 525_600) return minutes;
  if (!warned) {
    warned = true;
    console.warn(`REVIEW_SLA_MINUTES=${raw} is not a whole number of minutes between 1 and 525600; using ${DEFAULT_REVIEW_SLA_MINUTES}.`);
  }
  return DEFAULT_REVIEW_SLA_MINUTES;
}
let warned = false;

/** Calls waiting since before this instant are overdue. */
export function overdueCutoff(now: Date = new Date(), minutes: number = reviewSlaMinutes()): Date {
  return new Date(now.getTime() - minutes * 60_000);
}
