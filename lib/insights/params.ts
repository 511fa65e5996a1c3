/**
 * What /insights and GET /api/insights accept, as plain values: the page's filters draw their
 * choices from here, the schema (validations.ts) enforces them. Free of zod and of the catalogs,
 * so that components can import it.
 */
import { RISKS } from "../risk.ts";

export const INSIGHT_PERIODS = ["7", "30", "90"] as const;
export const INSIGHT_RISKS = [...RISKS, "unrated"] as const;
export const MAX_PERIOD_DAYS = 366;
export const DEFAULT_PERIOD_DAYS = 30;

/** What /insights reads from its URL (format is the API's alone). */
export const INSIGHTS_PARAM_KEYS = ["period", "from", "to", "agentId", "toolName", "resourcePrefix", "risk", "timeZone"] as const;
