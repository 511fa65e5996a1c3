import { useLocale, useTranslations } from "next-intl";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { InsightsDto } from "@/lib/insights/dto";
import { historyHref, reviewerScope } from "@/lib/insights/history-links";
import { formatWaitRange } from "@/lib/insights/wait-range";
import { CountLink, Missing, Panel, Share } from "./panel";

/**
 * Per reviewer: decisions, median time to decide, shares approved and decided without the context,
 * and the rubber-stamp signals, said to be signals to look at, not verdicts. Support sees
 * "Reviewer 1", "Reviewer 2", … (the DTO carries no names for them) and no links by name.
 */
export function ReviewersPanel({ insights }: { insights: InsightsDto }) {
  const t = useTranslations("insights.reviewers");
  const tInsights = useTranslations("insights");
  const locale = useLocale();
  const scope = reviewerScope(insights);
  const right = "text-right";
  return (
    <Panel id="insights-reviewers" title={t("title")} intro={t("intro")}>
      <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="signals-note">
        <p className="font-medium">{t("signalsTitle")}</p>
        <p className="mt-1 text-[13px] leading-relaxed">
          {t("signalsExplained", { seconds: insights.signals.quickSeconds, length: insights.signals.streakLength })}
        </p>
        {insights.signalsCounted ? null : <p className="mt-1 text-[13px] font-medium">{t("signalsNotCounted")}</p>}
      </div>
      {insights.reviewers.length === 0 ? (
        <p className="text-sm text-neutral-600">{t("none")}</p>
      ) : (
        <div className="rounded-md border border-neutral-200">
          <Table data-testid="reviewers">
            <TableCaption>{t("caption")}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">{t("reviewer")}</TableHead>
                <TableHead scope="col" className={right}>
                  {t("decisions")}
                </TableHead>
                <TableHead scope="col" className={right}>
                  {t("medianWait")}
                </TableHead>
                <TableHead scope="col" className={right}>
                  {t("approved")}
                </TableHead>
                <TableHead scope="col" className={right}>
                  {t("withoutContext")}
                </TableHead>
                <TableHead scope="col" className={right}>
                  {t("quick", { seconds: insights.signals.quickSeconds })}
                </TableHead>
                <TableHead scope="col" className={right}>
                  {t("streak", { length: insights.signals.streakLength })}
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {insights.reviewers.map((row, index) => (
                <TableRow key={row.label} data-reviewer={row.reviewer ?? `#${index + 1}`}>
                  <TableCell className="min-w-[9rem] max-w-[16rem] [overflow-wrap:anywhere]">
                    {row.reviewer ?? t("anonymous", { number: index + 1 })}
                  </TableCell>
                  <TableCell className={right}>
                    <CountLink
                      count={row.decisions}
                      href={row.reviewer ? historyHref(insights, { ...scope, reviewer: row.reviewer, outcome: "applied" }) : null}
                    />
                  </TableCell>
                  <TableCell className={`${right} whitespace-nowrap tabular-nums`}>
                    {row.medianWait ? formatWaitRange(row.medianWait, locale) : <Missing label={tInsights("noWait")} />}
                  </TableCell>
                  <TableCell className={right}>
                    <Share value={row.approvedShare} />
                  </TableCell>
                  <TableCell className={right}>
                    <Share value={row.withoutContextShare} />
                  </TableCell>
                  <TableCell className={right}>
                    {insights.signalsCounted ? <CountLink count={row.quickApprovals} href={null} /> : <Missing label={t("notCounted")} />}
                  </TableCell>
                  <TableCell className={right}>
                    {insights.signalsCounted ? <CountLink count={row.streakApprovals} href={null} /> : <Missing label={t("notCounted")} />}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Panel>
  );
}
