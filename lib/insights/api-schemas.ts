/** What GET /api/insights answers (dto.ts's `InsightsDto`), as a zod schema for the OpenAPI document (lib/openapi). */
import { z } from "zod";
import { DECIDERS } from "./dto.ts";

const int = () => z.number().int();
const share = () => z.number().nullable();
const wait = z
  .object({ fromMs: z.number(), toMs: z.number() })
  .nullable()
  .meta({ description: "The range the percentile lies in, in milliseconds." });

const outcomesFields = {
  decided: int(),
  by: z.object(Object.fromEntries(DECIDERS.map((decider) => [decider, int()])) as Record<(typeof DECIDERS)[number], z.ZodNumber>),
  approved: int(),
  declined: int(),
  resumed: int(),
  expired: int(),
};

const outcomeRow = z.object({
  ...outcomesFields,
  agentId: z.string(),
  toolName: z.string().meta({ description: '"" for the agent\'s row.' }),
  approvalRate: share(),
  declineRate: share(),
  expiryRate: share(),
});

const timeFields = { decisions: int(), timed: int(), withinTarget: int(), withinTargetShare: share(), p50: wait, p90: wait, p99: wait };

export const insightsSchema = z
  .object({
    period: z.object({
      firstDay: z.string(),
      lastDay: z.string(),
      from: z.string(),
      to: z.string(),
      timeZone: z.string(),
      utcDaysFrom: z.string(),
      utcDaysTo: z.string(),
    }),
    filters: z.object({
      agentId: z.string().optional(),
      toolName: z.string().optional(),
      resourcePrefix: z.string().optional(),
      risk: z.string().optional(),
    }),
    waited: int(),
    outcomes: z.object(outcomesFields),
    byAgent: z.array(outcomeRow),
    byTool: z.array(outcomeRow),
    timeToDecision: z.object({
      ...timeFields,
      byRisk: z.array(z.object({ ...timeFields, risk: z.string(), targetMinutes: z.number().nullable() })),
      byTool: z.array(z.object({ ...timeFields, agentId: z.string(), toolName: z.string() })),
    }),
    reviewers: z.array(
      z.object({
        reviewer: z.string().nullable(),
        label: z.string(),
        decisions: int(),
        approved: int(),
        approvedShare: share(),
        medianWait: wait,
        withoutContext: int(),
        withoutContextShare: share(),
        quickApprovals: int(),
        streakApprovals: int(),
      }),
    ),
    anonymous: z.boolean(),
    days: z.array(z.object({ date: z.string(), waited: int(), decided: int(), overdue: int() })),
    signals: z.object({ quickSeconds: z.number(), streakLength: z.number() }),
    signalsCounted: z.boolean(),
  })
  .meta({ id: "Insights" });
