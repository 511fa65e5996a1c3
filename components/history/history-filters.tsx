import { useTranslations } from "next-intl";
import { Input } from "@/components/ui/input";
import { FilterForm, FormField } from "@/components/ui/filter-form";
import { Select } from "@/components/ui/select";
import { AUDIT_KINDS, AUDIT_OUTCOMES, EARLIEST_DAY, LATEST_DAY } from "@/lib/list-params";

/** A plain GET form: filters land in the URL, so a link reproduces the view (and it works without JS). */
export function HistoryFilters({ values, agents }: { values: Record<string, string>; agents: Array<{ id: string; name: string }> }) {
  const t = useTranslations("history.filters");
  const tOutcome = useTranslations("history.outcomes");
  const tKind = useTranslations("history.kinds");
  const set = HISTORY_FILTERS.filter((name) => values[name]).length;
  // Below 768 px the form folds under one "Filters (n)" button.
  return (
    <FilterForm
      action="/history"
      labels={{ fold: t("label"), foldCount: t("labelCount", { count: set }), apply: t("apply"), reset: t("reset") }}
      count={set}
    >
      {/* Decisions or access changes: both are `recorded`, so the outcome alone cannot tell them apart. */}
      <FormField id="history-kind" label={t("kind")}>
        <Select id="history-kind" name="kind" defaultValue={values.kind ?? ""}>
          <option value="">{t("allKinds")}</option>
          {AUDIT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {tKind(kind)}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField id="history-reviewer" label={t("reviewer")}>
        <Input id="history-reviewer" name="reviewer" defaultValue={values.reviewer} className="w-40" />
      </FormField>
      <FormField id="history-resource" label={t("resourceId")}>
        <Input id="history-resource" name="resourceId" defaultValue={values.resourceId} className="w-44" />
      </FormField>
      <FormField id="history-agent" label={t("agent")}>
        <Select id="history-agent" name="agentId" defaultValue={values.agentId ?? ""}>
          <option value="">{t("allAgents")}</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField id="history-tool" label={t("tool")}>
        <Input id="history-tool" name="toolName" defaultValue={values.toolName} className="w-40 font-mono" />
      </FormField>
      <FormField id="history-outcome" label={t("outcome")}>
        <Select id="history-outcome" name="outcome" defaultValue={values.outcome ?? ""}>
          <option value="">{t("allOutcomes")}</option>
          {AUDIT_OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {tOutcome(outcome)}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField id="history-batch" label={t("batch")}>
        <Input id="history-batch" name="batch" defaultValue={values.batch} placeholder={t("batchPlaceholder")} className="w-36 font-mono" />
      </FormField>
      <FormField id="history-run" label={t("runId")}>
        <Input id="history-run" name="runId" defaultValue={values.runId} placeholder={t("runIdPlaceholder")} className="w-44 font-mono" />
      </FormField>
      <FormField id="history-from" label={t("from")}>
        <Input id="history-from" name="from" type="date" min={EARLIEST_DAY} max={LATEST_DAY} defaultValue={values.from} />
      </FormField>
      <FormField id="history-to" label={t("to")}>
        <Input id="history-to" name="to" type="date" min={EARLIEST_DAY} max={LATEST_DAY} defaultValue={values.to} />
      </FormField>
    </FilterForm>
  );
}

/** The form's fields that filter (counted on the phone's Filters button). */
const HISTORY_FILTERS = ["kind", "reviewer", "resourceId", "agentId", "toolName", "outcome", "batch", "runId", "from", "to"] as const;
