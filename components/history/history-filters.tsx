import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PhoneFold } from "@/components/ui/phone-fold";
import { Select } from "@/components/ui/select";
import { AUDIT_OUTCOMES, EARLIEST_DAY, LATEST_DAY } from "@/lib/list-params";

/** A plain GET form: filters land in the URL, so a link reproduces the view (and it works without JS). */
export function HistoryFilters({ values, agents }: { values: Record<string, string>; agents: Array<{ id: string; name: string }> }) {
  const t = useTranslations("history.filters");
  const tOutcome = useTranslations("history.outcomes");
  const set = HISTORY_FILTERS.filter((name) => values[name]).length;
  // Below 768 px the form folds under one "Filters (n)" button.
  return (
    <PhoneFold label={t("label")} countLabel={t("labelCount", { count: set })} count={set}>
      <form method="get" action="/history" className="flex flex-wrap items-end gap-3 rounded-lg border border-neutral-200 bg-white p-4">
        <Field id="history-reviewer" label={t("reviewer")}>
          <Input id="history-reviewer" name="reviewer" defaultValue={values.reviewer} className="w-40" />
        </Field>
        <Field id="history-resource" label={t("resourceId")}>
          <Input id="history-resource" name="resourceId" defaultValue={values.resourceId} className="w-44" />
        </Field>
        <Field id="history-agent" label={t("agent")}>
          <Select id="history-agent" name="agentId" defaultValue={values.agentId ?? ""}>
            <option value="">{t("allAgents")}</option>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="history-tool" label={t("tool")}>
          <Input id="history-tool" name="toolName" defaultValue={values.toolName} className="w-40 font-mono" />
        </Field>
        <Field id="history-outcome" label={t("outcome")}>
          <Select id="history-outcome" name="outcome" defaultValue={values.outcome ?? ""}>
            <option value="">{t("allOutcomes")}</option>
            {AUDIT_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {tOutcome(outcome)}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="history-batch" label={t("batch")}>
          <Input
            id="history-batch"
            name="batch"
            defaultValue={values.batch}
            placeholder={t("batchPlaceholder")}
            className="w-36 font-mono"
          />
        </Field>
        <Field id="history-run" label={t("runId")}>
          <Input id="history-run" name="runId" defaultValue={values.runId} placeholder={t("runIdPlaceholder")} className="w-44 font-mono" />
        </Field>
        <Field id="history-from" label={t("from")}>
          <Input id="history-from" name="from" type="date" min={EARLIEST_DAY} max={LATEST_DAY} defaultValue={values.from} />
        </Field>
        <Field id="history-to" label={t("to")}>
          <Input id="history-to" name="to" type="date" min={EARLIEST_DAY} max={LATEST_DAY} defaultValue={values.to} />
        </Field>
        <div className="flex gap-2">
          <Button type="submit">{t("apply")}</Button>
          <a
            href="/history"
            className="inline-flex h-9 items-center rounded-md px-3 text-sm font-medium text-neutral-700 hover:bg-neutral-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
          >
            {t("reset")}
          </a>
        </div>
      </form>
    </PhoneFold>
  );
}

/** The form's fields that filter (counted on the phone's Filters button). */
const HISTORY_FILTERS = ["reviewer", "resourceId", "agentId", "toolName", "outcome", "batch", "runId", "from", "to"] as const;

function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}
