import { useFormatter, useTranslations } from "next-intl";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { InsightsDto } from "@/lib/insights/dto";
import { dayScope, historyHref } from "@/lib/insights/history-links";
import { DAY_SERIES, DaysChart, SERIES_FILL } from "./days-chart";
import { CountLink, Panel } from "./panel";

/**
 * Per local day of the period: calls that started waiting, decided, and overdue (people's after
 * their target, and expiries). The chart for the eye; the same numbers in the table beside it
 * (under it on a narrow screen, newest first) for everyone, each decided count linked to that day's history.
 */
export function DaysPanel({ insights }: { insights: InsightsDto }) {
  const t = useTranslations("insights.days");
  const format = useFormatter();
  const { days } = insights;
  const max = Math.max(0, ...days.flatMap((day) => DAY_SERIES.map((series) => day[series])));
  // The dates as calendar days: formatted in UTC, where the date string's midnight is that day.
  const dateOf = (date: string, style: "short" | "medium") =>
    format.dateTime(new Date(`${date}T00:00:00Z`), { timeZone: "UTC", dateStyle: style });
  return (
    <Panel id="insights-days" title={t("title")} intro={t("intro", { timeZone: insights.period.timeZone })}>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <figure className="min-w-0">
          <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-neutral-700" aria-hidden="true">
            {DAY_SERIES.map((series) => (
              <li key={series} className="flex items-center gap-1.5">
                <svg viewBox="0 0 10 10" className="h-2.5 w-2.5">
                  <rect width="10" height="10" className={SERIES_FILL[series]} />
                </svg>
                {t(series)}
              </li>
            ))}
          </ul>
          <p className="text-xs tabular-nums text-neutral-600" aria-hidden="true">
            {format.number(max)}
          </p>
          <DaysChart days={days} max={max} />
          <div className="mt-1 flex justify-between gap-2 text-xs text-neutral-600" aria-hidden="true">
            <span>{days[0] ? dateOf(days[0].date, "short") : null}</span>
            <span>{days.length > 1 ? dateOf(days.at(-1)!.date, "short") : null}</span>
          </div>
          <figcaption className="sr-only">{t("chartSummary")}</figcaption>
        </figure>
        {/* Scrolls within itself (a focusable region, so the keyboard scrolls it too): 90 days stay beside the chart. */}
        <div
          className="max-h-80 min-w-0 overflow-y-auto rounded-md border border-neutral-200"
          role="region"
          aria-label={t("caption")}
          tabIndex={0}
        >
          <Table data-testid="days">
            <TableCaption>{t("caption")}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">{t("date")}</TableHead>
                {DAY_SERIES.map((series) => (
                  <TableHead key={series} scope="col" className="text-right">
                    {t(series)}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {[...days].reverse().map((day) => (
                <TableRow key={day.date} data-date={day.date}>
                  {/* The row's header: its day (TableHead is styled for column headers). */}
                  <th scope="row" className="whitespace-nowrap px-3 py-2 text-left font-normal">
                    <time dateTime={day.date}>{dateOf(day.date, "medium")}</time>
                  </th>
                  <TableCell className="text-right">
                    <CountLink count={day.waited} href={null} />
                  </TableCell>
                  <TableCell className="text-right">
                    <CountLink count={day.decided} href={historyHref(insights, dayScope(insights, day.date))} />
                  </TableCell>
                  <TableCell className="text-right">
                    <CountLink count={day.overdue} href={null} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </div>
    </Panel>
  );
}
