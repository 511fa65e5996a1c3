"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { applyRule } from "@/lib/actions/apply-rule";
import { createRule } from "@/lib/actions/create-rule";
import { dryRunRule } from "@/lib/actions/dry-run-rule";
import { updateRule } from "@/lib/actions/update-rule";
import type { DryRunResult, RuleDefinition } from "@/lib/rules/dto";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { RISKS } from "@/lib/risk";
import { useErrorText } from "@/components/error-text";
import { RuleBacktestPanel } from "./rule-backtest-panel";
import { DryRunSummary } from "./rule-dry-run";
import { FormField } from "@/components/ui/filter-form";

/** How conditions are written: JSON, the same in every language. */
const CONDITIONS_EXAMPLE = '[{ "path": "amount", "op": "<=", "value": 50 }]';

/** The form's fields as the schema takes them (conditions: the JSON text, parsed here; the server checks everything). */
function ruleOf(form: HTMLFormElement): { rule?: Record<string, unknown>; conditionsInvalid?: true } {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "");
  let conditions: unknown = [];
  if (text("conditions").trim()) {
    try {
      conditions = JSON.parse(text("conditions"));
    } catch {
      return { conditionsInvalid: true };
    }
  }
  const effect = text("effect");
  return {
    rule: {
      name: text("name"),
      agentId: text("agentId"),
      toolName: text("toolName"),
      resource: text("resource"),
      resourceMatch: text("resourceMatch"),
      callKind: text("callKind") || null,
      conditions,
      effect,
      reason: effect === "decline" ? text("reason") : null,
      approvals: effect === "require_approvals" ? Number(text("approvals")) : null,
      risk: text("risk"),
    },
  };
}

/** What a dry run was run on: the form as it is, or the rule as it was just saved (name and version). */
interface DryRun {
  rule: Record<string, unknown>;
  savedAs?: { name: string; version: number };
  result: DryRunResult;
}

/**
 * A saved rule as the dry run takes one: its fields and end, without what the store keeps beside them (the dry
 * run ignores the list's order, and a trusted rule's place before the first is below the position an admin sets).
 */
function inputOf({
  id: _id,
  version: _version,
  position: _position,
  trustedBy: _trustedBy,
  ...rule
}: RuleDefinition): Record<string, unknown> {
  return rule;
}

/**
 * Creates a rule or edits `editing`: dry run first, then save disabled or enabled (optionally applied
 * to the calls waiting now). Each save shows the dry run of what was saved, on the calls waiting then.
 */
export function RuleForm({ editing, onDone }: { editing: RuleDefinition | null; onDone: () => void }) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const t = useTranslations("admin");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const conditionsProblem = t("rules.conditionsInvalid", { example: CONDITIONS_EXAMPLE });
  const [message, setMessage] = useState<{ kind: "success" | "destructive"; text: string } | null>(null);
  const [dryRun, setDryRun] = useState<DryRun | null>(null);
  const [applyNow, setApplyNow] = useState(false);
  const [pending, setPending] = useState(false);
  const [effect, setEffect] = useState(editing?.effect ?? "approve");

  /** Dry-runs `rule` (a page of a saved version's dry run keeps the save's message above it). */
  async function runDry(rule: Record<string, unknown>, page = 1, savedAs?: DryRun["savedAs"]) {
    setPending(true);
    const result = await dryRunRule({ rule, page, pageSize: 20 });
    setPending(false);
    if (result.ok) {
      setDryRun({ rule, savedAs, result: result.data });
      if (!savedAs) setMessage(null);
    } else {
      setDryRun(null);
      setMessage({ kind: "destructive", text: errorText(result.error) });
    }
  }

  function runDryOfForm(form: HTMLFormElement) {
    const { rule } = ruleOf(form);
    if (!rule) return setMessage({ kind: "destructive", text: conditionsProblem });
    void runDry(rule);
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const enabled = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value") === "enabled";
    const { rule } = ruleOf(form);
    if (!rule) return setMessage({ kind: "destructive", text: conditionsProblem });
    setPending(true);
    const saved = editing ? await updateRule({ ...rule, enabled, id: editing.id }) : await createRule({ ...rule, enabled });
    if (!saved.ok) {
      setPending(false);
      return setMessage({ kind: "destructive", text: errorText(saved.error) });
    }
    let text = t("rules.saved", { name: saved.data.name, version: saved.data.version, enabled: enabled ? "yes" : "no" });
    // What the saved version does to the calls waiting now, read before it is applied to them (issue 25).
    const dry = await dryRunRule({ rule: inputOf(saved.data), page: 1, pageSize: 20 });
    if (enabled && applyNow) {
      const applied = await applyRule({ id: saved.data.id });
      text += ` ${
        applied.ok
          ? t("rules.applied", { decided: applied.data.decided, matched: applied.data.matched, more: applied.data.more ? "yes" : "no" })
          : t("rules.applyFailed", { error: errorText(applied.error) })
      }`;
    }
    setPending(false);
    const savedAs = { name: saved.data.name, version: saved.data.version };
    if (dry.ok) setDryRun({ rule: inputOf(saved.data), savedAs, result: dry.data });
    else {
      setDryRun(null);
      text += ` ${errorText(dry.error)}`;
    }
    setMessage({ kind: "success", text });
    if (!editing) form.reset();
    onDone();
    router.refresh();
  }

  const value = (field: keyof RuleDefinition) => {
    const current = editing?.[field];
    return current === null || current === undefined ? "" : String(current);
  };

  return (
    <section aria-labelledby="rule-form" className="rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="rule-form" className="text-base font-semibold">
        {editing ? t("rules.editTitle", { name: editing.name, version: editing.version }) : t("rules.newTitle")}
      </h2>
      <form ref={formRef} key={editing?.id ?? "new"} onSubmit={save} className="mt-4 grid gap-4 sm:grid-cols-3">
        <FormField id="rule-name" label={t("rules.name")}>
          <Input id="rule-name" name="name" required maxLength={100} defaultValue={value("name")} />
        </FormField>
        <FormField id="rule-agent" label={t("rules.agentLabel")}>
          <Input id="rule-agent" name="agentId" maxLength={200} defaultValue={value("agentId")} />
        </FormField>
        <FormField id="rule-tool" label={t("rules.toolLabel")}>
          <Input id="rule-tool" name="toolName" maxLength={200} defaultValue={value("toolName")} />
        </FormField>
        <FormField id="rule-resource" label={t("rules.resourceLabel")}>
          <Input id="rule-resource" name="resource" maxLength={200} defaultValue={value("resource")} />
        </FormField>
        <FormField id="rule-resource-match" label={t("rules.resourceMatch")}>
          <Select id="rule-resource-match" name="resourceMatch" defaultValue={value("resourceMatch") || "exact"}>
            <option value="exact">{t("rules.exactly")}</option>
            <option value="prefix">{t("rules.prefix")}</option>
          </Select>
        </FormField>
        <FormField id="rule-kind" label={t("rules.callKind")}>
          <Select id="rule-kind" name="callKind" defaultValue={value("callKind")}>
            <option value="">{t("rules.any")}</option>
            <option value="approval">{t("rules.kindApproval")}</option>
            <option value="input">{t("rules.kindInput")}</option>
          </Select>
        </FormField>
        <FormField id="rule-effect" label={t("rules.effect")}>
          <Select
            id="rule-effect"
            name="effect"
            value={effect}
            onChange={(event) => setEffect(event.target.value as RuleDefinition["effect"])}
          >
            <option value="approve">{t("rules.effectApprove")}</option>
            <option value="decline">{t("rules.effectDecline")}</option>
            <option value="require_approvals">{t("rules.effectRequire")}</option>
            <option value="ask">{t("rules.effectAsk")}</option>
          </Select>
        </FormField>
        {effect === "decline" ? (
          <FormField id="rule-reason" label={t("rules.reasonLabel")}>
            <Input id="rule-reason" name="reason" required maxLength={1000} defaultValue={value("reason")} />
          </FormField>
        ) : null}
        {effect === "require_approvals" ? (
          <FormField id="rule-approvals" label={t("rules.approvals")}>
            <Select id="rule-approvals" name="approvals" defaultValue={value("approvals") || "2"}>
              <option value="2">2</option>
              <option value="3">3</option>
            </Select>
          </FormField>
        ) : null}
        <FormField id="rule-risk" label={t("rules.riskLabel")}>
          <Select id="rule-risk" name="risk" defaultValue={value("risk") || "medium"}>
            {RISKS.map((risk) => (
              <option key={risk} value={risk}>
                {t("rules.riskLevel", { risk })}
              </option>
            ))}
          </Select>
        </FormField>
        <div className="flex flex-col gap-1 sm:col-span-3">
          <Label htmlFor="rule-conditions">{t("rules.conditionsLabel")}</Label>
          <Textarea
            id="rule-conditions"
            name="conditions"
            rows={3}
            placeholder={CONDITIONS_EXAMPLE}
            defaultValue={editing && editing.conditions.length > 0 ? JSON.stringify(editing.conditions) : ""}
          />
        </div>
        <div className="flex flex-col gap-3 sm:col-span-3">
          <div role="status" aria-live="polite">
            {message ? <Alert variant={message.kind}>{message.text}</Alert> : null}
          </div>
          {dryRun?.savedAs ? (
            <section aria-labelledby="rule-saved-dry-run" className="flex flex-col gap-2">
              <h3 id="rule-saved-dry-run" className="text-sm font-medium">
                {t("rules.savedDryRun", dryRun.savedAs)}
              </h3>
              <DryRunSummary
                result={dryRun.result}
                effect={dryRun.rule.effect as RuleDefinition["effect"]}
                onPage={(page) => void runDry(dryRun.rule, page, dryRun.savedAs)}
              />
            </section>
          ) : dryRun ? (
            <DryRunSummary
              result={dryRun.result}
              effect={dryRun.rule.effect as RuleDefinition["effect"]}
              onPage={(page) => void runDry(dryRun.rule, page)}
            />
          ) : null}
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="applyNow" checked={applyNow} onChange={(event) => setApplyNow(event.target.checked)} />
            {t("rules.applyNow")}
          </label>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" disabled={pending} onClick={(event) => runDryOfForm(event.currentTarget.form!)}>
              {t("rules.dryRun")}
            </Button>
            <Button type="submit" value="disabled" variant="secondary" disabled={pending}>
              {t("rules.saveDisabled")}
            </Button>
            <Button type="submit" value="enabled" disabled={pending}>
              {t("rules.saveEnabled")}
            </Button>
            {editing ? (
              <Button type="button" variant="ghost" onClick={onDone}>
                {common("cancel")}
              </Button>
            ) : null}
          </div>
          <RuleBacktestPanel readRule={() => (formRef.current ? ruleOf(formRef.current).rule : undefined)} unreadable={conditionsProblem} />
        </div>
      </form>
    </section>
  );
}
