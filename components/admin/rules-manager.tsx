"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteRule } from "@/lib/actions/delete-rule";
import type { RuleDefinition, RuleVersionDto } from "@/lib/rules/dto";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RuleForm } from "./rule-form";

/** What a rule does, in words. */
function describe(rule: RuleDefinition): string {
  const what =
    rule.effect === "approve"
      ? "approve"
      : rule.effect === "decline"
        ? `decline ("${rule.reason ?? ""}")`
        : rule.effect === "require_approvals"
          ? `require ${rule.approvals} approvals`
          : "ask a person";
  const where = [
    rule.agentId ? `agent ${rule.agentId}` : "any agent",
    rule.toolName ? `tool ${rule.toolName}` : "any tool",
    rule.resource ? `resource ${rule.resourceMatch === "prefix" ? "starting with " : ""}${rule.resource}` : null,
    rule.callKind ? `${rule.callKind} calls` : null,
    ...rule.conditions.map(
      (condition) => `${condition.path} ${condition.op}${condition.op === "exists" ? "" : ` ${JSON.stringify(condition.value)}`}`,
    ),
  ].filter(Boolean);
  return `${what} · ${where.join(" · ")} · risk ${rule.risk}`;
}

/** The rules in order (first match wins), each with its versions, and the form to add or edit one. */
export function RulesManager({ rules, versions }: { rules: RuleDefinition[]; versions: Record<string, RuleVersionDto[]> }) {
  const router = useRouter();
  const [editing, setEditing] = useState<RuleDefinition | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function remove(rule: RuleDefinition) {
    const result = await deleteRule({ id: rule.id });
    if (!result.ok) return setError(result.error.message);
    setError(null);
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="rules-list" className="rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="rules-list" className="text-base font-semibold">
          Rules, in order (the first enabled match wins)
        </h2>
        {error ? <Alert variant="destructive">{error}</Alert> : null}
        {rules.length === 0 ? <p className="mt-2 text-sm text-neutral-600">No rules: a person decides every call.</p> : null}
        <ol className="mt-3 flex flex-col gap-3">
          {rules.map((rule, index) => (
            <li key={rule.id} data-testid="rule" className="rounded-md border border-neutral-200 p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">
                  {index + 1}. {rule.name}
                </span>
                <span className={rule.enabled ? "text-emerald-700" : "text-neutral-500"}>{rule.enabled ? "enabled" : "disabled"}</span>
                <span className="text-neutral-500">version {rule.version}</span>
                <Button type="button" size="xs" variant="outline" onClick={() => setEditing(rule)}>
                  Edit
                </Button>
                <Button type="button" size="xs" variant="ghost" onClick={() => void remove(rule)}>
                  Delete
                </Button>
              </div>
              <p className="mt-1 text-neutral-700">{describe(rule)}</p>
              <details className="mt-1">
                <summary className="cursor-pointer text-neutral-600">History ({versions[rule.id]?.length ?? 0} versions)</summary>
                <ul className="mt-1 flex flex-col gap-1">
                  {(versions[rule.id] ?? []).map((version) => (
                    <li key={version.version} className="text-xs text-neutral-600">
                      Version {version.version}: {version.change} by {version.changedBy} at {version.changedAt} ·{" "}
                      {version.rule.enabled ? "enabled" : "disabled"} · {describe(version.rule)}
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
        </ol>
      </section>
      <RuleForm editing={editing} onDone={() => setEditing(null)} />
    </div>
  );
}
