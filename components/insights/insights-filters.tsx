import { useTranslations } from "next-intl";
import { Input } from "@/components/ui/input";
import { FilterForm, FormField } from "@/components/ui/filter-form";
import { Select } from "@/components/ui/select";
import { INSIGHT_PERIODS, INSIGHT_RISKS } from "@/lib/insights/params";

/** The form's fields that filter (counted on the phone's Filters button); the period is always set. */
const FILTERS = ["from", "agentId", "toolName", "resourcePrefix", "risk"] as const;

/**
 * A plain GET form, like the history's: the period and filters land in the URL, so a link
 * reproduces the view (and it works without JS). "Dates below" leaves the period out, so From and
 * To apply; a period chosen with dates filled in is reported and the dates win.
 */
export function InsightsFilters({ values, agents }: { values: Record<string, string>; agents: Array<{ id: string; name: string }> }) {
  const t = useTranslations("insights.filters");
  const tRisk = useTranslations("queue.risk");
  const set = FILTERS.filter((name) => values[name]).length;
  const period = values.period ?? (values.from ? "" : "30");
  return (
    <FilterForm
      action="/insights"
      labels={{ fold: t("label"), foldCount: t("labelCount", { count: set }), apply: t("apply"), reset: t("reset") }}
      count={set}
    >
      <FormField id="insights-period" label={t("period")}>
        <Select id="insights-period" name="period" defaultValue={period}>
          {INSIGHT_PERIODS.map((days) => (
            <option key={days} value={days}>
              {t("lastDays", { days: Number(days) })}
            </option>
          ))}
          <option value="">{t("datesBelow")}</option>
        </Select>
      </FormField>
      <FormField id="insights-from" label={t("from")}>
        <Input id="insights-from" name="from" type="date" defaultValue={values.from} />
      </FormField>
      <FormField id="insights-to" label={t("to")}>
        <Input id="insights-to" name="to" type="date" defaultValue={values.to} />
      </FormField>
      <FormField id="insights-agent" label={t("agent")}>
        <Select id="insights-agent" name="agentId" defaultValue={values.agentId ?? ""}>
          <option value="">{t("allAgents")}</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField id="insights-tool" label={t("tool")}>
        <Input id="insights-tool" name="toolName" defaultValue={values.toolName} className="w-40 font-mono" />
      </FormField>
      <FormField id="insights-resource" label={t("resourcePrefix")}>
        <Input id="insights-resource" name="resourcePrefix" defaultValue={values.resourcePrefix} className="w-44 font-mono" />
      </FormField>
      <FormField id="insights-risk" label={t("risk")}>
        <Select id="insights-risk" name="risk" defaultValue={values.risk ?? ""}>
          <option value="">{t("allRisks")}</option>
          {INSIGHT_RISKS.map((risk) => (
            <option key={risk} value={risk}>
              {tRisk(risk)}
            </option>
          ))}
        </Select>
      </FormField>
      {/* A time zone given in the link (timeZone=…) stays with the view. */}
      {values.timeZone ? <input type="hidden" name="timeZone" value={values.timeZone} /> : null}
    </FilterForm>
  );
}
