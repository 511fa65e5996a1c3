/**
 * The insights (lib/insights), as /insights and GET /api/insights read them: anyone who may read
 * the console; support sees the reviewers without their names. Every parameter checked with zod.
 */
import { can } from "../auth/roles.ts";
import { requestLanguage } from "../i18n/request-language.ts";
import { readInsights } from "../insights/insights.ts";
import { insightsQuery } from "../insights/validations.ts";
import { operation } from "./operation.ts";

export const readInsightsOperation = operation({
  name: "readInsights",
  permission: "read",
  input: insightsQuery,
  run: async (query, { actor }) =>
    readInsights(query, { timeZone: (await requestLanguage()).timeZone, seesNames: can(actor.role, "decide") }),
});
