import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { InsightsDto, TimeToDecision } from "@/lib/insights/dto";
import { historyHref, periodScope } from "@/lib/insights/history-links";
import { formatWaitRange } from "@/lib/insights/wait-range";
import type { WaitPercentile } from "@/lib/insights/wait-scale";
import { AgentName, RiskName, ToolName } from "./names";
import { CountLink, Missing, Panel, Share } from "./panel";

/** People's time to decision (waiting → decided): percentiles as ranges, and the share within the review target. */
export function TimePanel({ insights, agentNames }: { insights: InsightsDto; agentNames: Map<string, string> }) {
  const t = useTranslations("insights.time");
  const { timeToDecision } = insights;
  const scope = periodScope(insights);
  return (
    <Panel id="insights-time" title={t("title")} intro={t("intro")}>
      <TimeTable caption={t("byRisk")} keyLabel={t("risk")} withTarget testId="time-by-risk">
        {timeToDecision.byRisk.map((row) => (
          <TimeRow
            key={row.risk}
            name={<RiskName risk={row.risk} />}
            target={row.targetMinutes === null ? t("noTarget") : t("minutes", { minutes: row.targetMinutes })}
            time={row}
            // The history has no risk filter: the people's decisions of the period, all risks.
            href={null}
          />
        ))}
        <TimeRow
          name={<strong>{t("all")}</strong>}
          target=""
          time={timeToDecision}
          href={historyHref(insights, { ...scope, outcome: "applied" })}
        />
      </TimeTable>
      <TimeTable caption={t("byTool")} keyLabel={t("tool")} withTarget={false} testId="time-by-tool">
        {timeToDecision.byTool.map((row) => (
          <TimeRow
            key={`${row.agentId}\u0000${row.toolName}`}
            name={
              <>
                <ToolName name={row.toolName} />{" "}
                <span className="text-xs text-neutral-600">
                  <AgentName id={row.agentId} names={agentNames} />
                </span>
              </>
            }
            time={row}
            href={historyHref(insights, { ...scope, agentId: row.agentId, toolName: row.toolName || undefined, outcome: "applied" })}
          />
        ))}
      </TimeTable>
    </Panel>
  );
}

function TimeTable({
  caption,
  keyLabel,
  withTarget,
  testId,
  children,
}: {
  caption: string;
  keyLabel: string;
  withTarget: boolean;
  testId: string;
  children: ReactNode;
}) {
  const t = useTranslations("insights.time");
  const right = "text-right";
  return (
    <div className="min-w-0">
      <h3 className="mb-2 text-sm font-medium">{caption}</h3>
      <div className="rounded-md border border-neutral-200">
        <Table data-testid={testId}>
          <TableCaption>{caption}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{keyLabel}</TableHead>
              {withTarget ? <TableHead scope="col">{t("target")}</TableHead> : null}
              <TableHead scope="col" className={right}>
                {t("decisions")}
              </TableHead>
              <TableHead scope="col" className={right}>
                {t("p50")}
              </TableHead>
              <TableHead scope="col" className={right}>
                {t("p90")}
              </TableHead>
              <TableHead scope="col" className={right}>
                {t("p99")}
              </TableHead>
              <TableHead scope="col" className={right}>
                {t("withinTarget")}
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>{children}</TableBody>
        </Table>
      </div>
    </div>
  );
}

function TimeRow({ name, target, time, href }: { name: ReactNode; target?: string; time: TimeToDecision; href: string | null }) {
  const t = useTranslations("insights.time");
  return (
    <TableRow>
      <TableCell className="min-w-[10rem]">{name}</TableCell>
      {target === undefined ? null : <TableCell className="whitespace-nowrap">{target}</TableCell>}
      <TableCell className="text-right">
        <CountLink count={time.decisions} href={href} />
        {time.timed < time.decisions ? (
          <span className="block text-xs text-neutral-600">{t("notRecorded", { count: time.decisions - time.timed })}</span>
        ) : null}
      </TableCell>
      <Percentile value={time.p50} />
      <Percentile value={time.p90} />
      <Percentile value={time.p99} />
      <TableCell className="text-right">
        <Share value={time.withinTargetShare} />
      </TableCell>
    </TableRow>
  );
}

/** A percentile's range in one place's words (lib/insights/wait-range.ts); a dash when no wait was recorded. */
function Percentile({ value }: { value: WaitPercentile | null }) {
  const locale = useLocale();
  const t = useTranslations("insights");
  return (
    <TableCell className="whitespace-nowrap text-right tabular-nums">
      {value ? formatWaitRange(value, locale) : <Missing label={t("noWait")} />}
    </TableCell>
  );
}
