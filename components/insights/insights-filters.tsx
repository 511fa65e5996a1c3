import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PhoneFold } from "@/components/ui/phone-fold";
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
    <PhoneFold label={t("label")} countLabel={t("labelCount", { count: set })} count={set}>
      <form method="get" action="/insights" className="flex flex-wrap items-end gap-3 rounded-lg border border-neutral-200 bg-white p-4">
        <Field id="insights-period" label={t("period")}>
          <Select id="insights-period" name="period" defaultValue={period}>
            {INSIGHT_PERIODS.map((days) => (
              <option key={days} value={days}>
                {t("lastDays", { days: Number(days) })}
              </option>
            ))}
            <option value="">{t("datesBelow")}</option>
          </Select>
        </Field>
        <Field id="insights-from" label={t("from")}>
          <Input id="insights-from" name="from" type="date" defaultValue={values.from} />
        </Field>
        <Field id="insights-to" label={t("to")}>
          <Input id="insights-to" name="to" type="date" defaultValue={values.to} />
        </Field>
        <Field id="insights-agent" label={t("agent")}>
          <Select id="insights-agent" name="agentId" defaultValue={values.agentId ?? ""}>
            <option value="">{t("allAgents")}</option>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="insights-tool" label={t("tool")}>
          <Input id="insights-tool" name="toolName" defaultValue={values.toolName} className="w-40 font-mono" />
        </Field>
        <Field id="insights-resource" label={t("resourcePrefix")}>
          <Input id="insights-resource" name="resourcePrefix" defaultValue={values.resourcePrefix} className="w-44 font-mono" />
        </Field>
        <Field id="insights-risk" label={t("risk")}>
          <Select id="insights-risk" name="risk" defaultValue={values.risk ?? ""}>
            <option value="">{t("allRisks")}</option>
            {INSIGHT_RISKS.map((risk) => (
              <option key={risk} value={risk}>
                {tRisk(risk)}
              </option>
            ))}
          </Select>
        </Field>
        {/* A time zone given in the link (timeZone=…) stays with the view. */}
        {values.timeZone ? <input type="hidden" name="timeZone" value={values.timeZone} /> : null}
        <div className="flex gap-2">
          <Button type="submit">{t("apply")}</Button>
          <a
            href="/insights"
            className="inline-flex h-9 items-center rounded-md px-3 text-sm font-medium text-neutral-700 hover:bg-neutral-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
          >
            {t("reset")}
          </a>
        </div>
      </form>
    </PhoneFold>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}
