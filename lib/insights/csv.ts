/**
 * The insights as one CSV (GET /api/insights?format=csv): a row per figure of every panel, in
 * long form (panel, the row's key, the figure's name, its value), so a spreadsheet pivots it and a
 * panel that gains a figure adds rows, not columns. Times are ranges in milliseconds (from, to).
 */
import { csvField } from "../audit/queries.ts";
import type { InsightsDto, TimeToDecision } from "./dto.ts";
import type { WaitPercentile } from "./wait-scale.ts";

export const INSIGHTS_CSV_COLUMNS = ["panel", "agent", "tool", "risk", "reviewer", "date", "figure", "value"] as const;

type Row = Partial<Record<(typeof INSIGHTS_CSV_COLUMNS)[number], unknown>>;

function figures(base: Row, values: Record<string, unknown>): Row[] {
  return Object.entries(values).map(([figure, value]) => ({ ...base, figure, value }));
}

const range = (percentile: WaitPercentile | null) => (percentile ? `${Math.round(percentile.fromMs)}-${Math.round(percentile.toMs)}` : "");

const timing = (time: TimeToDecision) => ({
  decisions: time.decisions,
  timed: time.timed,
  withinTarget: time.withinTarget,
  withinTargetShare: time.withinTargetShare ?? "",
  p50Ms: range(time.p50),
  p90Ms: range(time.p90),
  p99Ms: range(time.p99),
});

export function insightsCsv(insights: InsightsDto): string {
  const { outcomes } = insights;
  const rows: Row[] = [
    ...figures({ panel: "calls" }, { waited: insights.waited, decided: outcomes.decided, ...prefixed("decidedBy", outcomes.by) }),
    ...figures(
      { panel: "calls" },
      { approved: outcomes.approved, declined: outcomes.declined, resumed: outcomes.resumed, expired: outcomes.expired },
    ),
    ...insights.byAgent.flatMap((row) => figures({ panel: "agent", agent: row.agentId }, outcomeFigures(row))),
    ...insights.byTool.flatMap((row) => figures({ panel: "tool", agent: row.agentId, tool: row.toolName }, outcomeFigures(row))),
    ...figures({ panel: "timeToDecision" }, timing(insights.timeToDecision)),
    ...insights.timeToDecision.byRisk.flatMap((row) =>
      figures({ panel: "timeToDecision", risk: row.risk }, { targetMinutes: row.targetMinutes ?? "", ...timing(row) }),
    ),
    ...insights.timeToDecision.byTool.flatMap((row) =>
      figures({ panel: "timeToDecision", agent: row.agentId, tool: row.toolName }, timing(row)),
    ),
    ...insights.reviewers.flatMap((row) =>
      figures(
        { panel: "reviewer", reviewer: row.label },
        {
          decisions: row.decisions,
          approved: row.approved,
          medianWaitMs: range(row.medianWait),
          withoutContext: row.withoutContext,
          quickApprovals: row.quickApprovals,
          streakApprovals: row.streakApprovals,
        },
      ),
    ),
    ...insights.days.flatMap((day) =>
      figures({ panel: "day", date: day.date }, { waited: day.waited, decided: day.decided, overdue: day.overdue }),
    ),
  ];
  const lines = [
    INSIGHTS_CSV_COLUMNS.join(","),
    ...rows.map((row) => INSIGHTS_CSV_COLUMNS.map((column) => csvField(row[column])).join(",")),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

function prefixed(prefix: string, values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [`${prefix}.${key}`, value]));
}

function outcomeFigures(row: InsightsDto["byTool"][number]) {
  return {
    decided: row.decided,
    approved: row.approved,
    declined: row.declined,
    resumed: row.resumed,
    expired: row.expired,
    ...prefixed("decidedBy", row.by),
    approvalRate: row.approvalRate ?? "",
    declineRate: row.declineRate ?? "",
    expiryRate: row.expiryRate ?? "",
  };
}
