/**
 * Risk: every rule sets one (low, medium, high, critical); a call has the risk of the rule version
 * that matched it when it started waiting (call_rule_matches.risk), and none when no rule matched
 * ("unrated"). The review queue shows it, filters and orders by it, and each risk has its own review
 * target (lib/queue/review-target.ts). Plain values, browser-safe.
 */
export const RISKS = ["low", "medium", "high", "critical"] as const;
export type Risk = (typeof RISKS)[number];

/** Highest first, as "highest risk first" orders them. */
export const RISKS_HIGHEST_FIRST = [...RISKS].reverse() as Risk[];

/** 1 (low) to 4 (critical); 0 for a call without a risk. */
export function riskRank(risk: Risk | null | undefined): number {
  return risk ? RISKS.indexOf(risk) + 1 : 0;
}

export function isRisk(value: unknown): value is Risk {
  return typeof value === "string" && (RISKS as readonly string[]).includes(value);
}
