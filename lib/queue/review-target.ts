/**
 * Review targets: how long a call may wait for a person before it is overdue. A call a rule gave a
 * risk has that risk's target (`REVIEW_TARGET_<RISK>_MINUTES`); a call no rule rated has
 * `REVIEW_SLA_MINUTES` (lib/numeric-settings.mjs). Read on the server; the pages hand them to the browser.
 */
import { numericSetting, type NumericSettingName } from "../numeric-settings.mjs";
import { RISKS, type Risk } from "../risk.ts";

/** The configured target in minutes. A value outside its range stops the console at start, so it never stands in for one here. */
export function reviewSlaMinutes(env: Record<string, string | undefined> = process.env): number {
  return numericSetting("REVIEW_SLA_MINUTES", env);
}

const RISK_SETTINGS: Record<Risk, NumericSettingName> = {
  low: "REVIEW_TARGET_LOW_MINUTES",
  medium: "REVIEW_TARGET_MEDIUM_MINUTES",
  high: "REVIEW_TARGET_HIGH_MINUTES",
  critical: "REVIEW_TARGET_CRITICAL_MINUTES",
};

/** Each risk's target in minutes. */
export function riskTargetMinutes(env: Record<string, string | undefined> = process.env): Record<Risk, number> {
  return Object.fromEntries(RISKS.map((risk) => [risk, numericSetting(RISK_SETTINGS[risk], env)])) as Record<Risk, number>;
}

/** Calls waiting since before this instant are overdue. */
export function overdueCutoff(now: Date = new Date(), minutes: number = reviewSlaMinutes()): Date {
  return new Date(now.getTime() - minutes * 60_000);
}

/** The overdue cutoff of each risk, for the queue's SQL (lib/runs/risk-sql.ts). */
export function riskCutoffs(now: Date = new Date(), targets: Record<Risk, number> = riskTargetMinutes()): Record<Risk, Date> {
  return Object.fromEntries(RISKS.map((risk) => [risk, overdueCutoff(now, targets[risk])])) as Record<Risk, Date>;
}
