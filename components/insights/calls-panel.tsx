import { useTranslations } from "next-intl";
import { DECIDERS, type InsightsDto } from "@/lib/insights/dto";
import { historyHref, OUTCOME_OF_DECIDER, periodScope } from "@/lib/insights/history-links";
import { CountLink, Panel } from "./panel";

/** Calls that waited in the period, and how the decided ones were decided. */
export function CallsPanel({ insights }: { insights: InsightsDto }) {
  const t = useTranslations("insights.calls");
  const scope = periodScope(insights);
  const { outcomes } = insights;
  return (
    <Panel id="insights-calls" title={t("title")} intro={t("intro")}>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" data-testid="insights-calls">
        <Figure name={t("waited")} testId="waited">
          {/* The history lists decisions, not calls that wait: this one has no link. */}
          <CountLink count={insights.waited} href={null} />
        </Figure>
        <Figure name={t("decided")} testId="decided">
          <CountLink count={outcomes.decided} href={historyHref(insights, scope)} />
        </Figure>
        {DECIDERS.map((decider) => (
          <Figure key={decider} name={t(`by.${decider}`)} testId={decider}>
            <CountLink count={outcomes.by[decider]} href={historyHref(insights, { ...scope, outcome: OUTCOME_OF_DECIDER[decider] })} />
          </Figure>
        ))}
      </dl>
    </Panel>
  );
}

function Figure({ name, testId, children }: { name: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col-reverse gap-1 rounded-md border border-neutral-200 px-3 py-2" data-figure={testId}>
      <dt className="text-xs text-neutral-600">{name}</dt>
      <dd className="text-xl font-semibold">{children}</dd>
    </div>
  );
}
