"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteRule } from "@/lib/actions/delete-rule";
import type { RuleDefinition, RuleVersionDto } from "@/lib/rules/dto";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useErrorText } from "@/components/error-text";
import { useTimestamp } from "@/components/time";
import { useDescribeRule } from "./describe-rule";
import { BacktestView } from "./rule-backtest";
import { RuleForm } from "./rule-form";

/** A rule a reviewer trusted (lib/rules/trust.ts): until when, and by whom; once its end passed (`now`, from the server's render), "Ended". */
function TrustedBadge({ rule, now }: { rule: RuleDefinition; now: string }) {
  const t = useTranslations("admin.rules");
  const timestamp = useTimestamp();
  if (!rule.expiresAt) return null;
  const ended = Date.parse(rule.expiresAt) <= Date.parse(now);
  const values = { by: rule.trustedBy ?? "", time: () => <time dateTime={rule.expiresAt!}>{timestamp(rule.expiresAt!)}</time> };
  return (
    <span
      data-testid="trusted-badge"
      className={`rounded-full border px-2 py-0.5 text-xs [overflow-wrap:anywhere] ${
        ended ? "border-neutral-300 bg-neutral-100 text-neutral-600" : "border-sky-300 bg-sky-50 text-sky-900"
      }`}
    >
      {ended ? t.rich("trustEnded", values) : t.rich("trustedUntil", values)}
    </span>
  );
}

/** The rules in order (first match wins), each with its versions, and the form to add or edit one. */
export function RulesManager({
  rules,
  versions,
  now,
}: {
  rules: RuleDefinition[];
  versions: Record<string, RuleVersionDto[]>;
  /** When the page was read (ISO): a trusted rule whose end is before it shows as ended. */
  now: string;
}) {
  const router = useRouter();
  const t = useTranslations("admin.rules");
  const errorText = useErrorText();
  const timestamp = useTimestamp();
  const describe = useDescribeRule();
  const [editing, setEditing] = useState<RuleDefinition | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function remove(rule: RuleDefinition) {
    const result = await deleteRule({ id: rule.id });
    if (!result.ok) return setError(errorText(result.error));
    setError(null);
    router.refresh();
  }

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="rules-list" className="rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="rules-list" className="text-base font-semibold">
          {t("listTitle")}
        </h2>
        {error ? <Alert variant="destructive">{error}</Alert> : null}
        {rules.length === 0 ? <p className="mt-2 text-sm text-neutral-600">{t("none")}</p> : null}
        <ol className="mt-3 flex flex-col gap-3">
          {rules.map((rule, index) => (
            <li key={rule.id} data-testid="rule" className="rounded-md border border-neutral-200 p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">
                  {index + 1}. {rule.name}
                </span>
                <span className={rule.enabled ? "text-emerald-700" : "text-neutral-500"}>
                  {t("enabled", { enabled: rule.enabled ? "yes" : "no" })}
                </span>
                <span className="text-neutral-500">{t("version", { version: rule.version })}</span>
                <TrustedBadge rule={rule} now={now} />
                <Button type="button" size="xs" variant="outline" onClick={() => setEditing(rule)}>
                  {t("edit")}
                </Button>
                <Button type="button" size="xs" variant="ghost" onClick={() => void remove(rule)}>
                  {t("delete")}
                </Button>
              </div>
              <p className="mt-1 text-neutral-700">{describe(rule)}</p>
              <details className="mt-1">
                <summary className="cursor-pointer text-neutral-600">{t("history", { count: versions[rule.id]?.length ?? 0 })}</summary>
                <ul className="mt-1 flex flex-col gap-1">
                  {(versions[rule.id] ?? []).map((version) => (
                    <li key={version.version} className="text-xs text-neutral-600">
                      {t.rich("versionLine", {
                        version: version.version,
                        change: version.change,
                        by: version.changedBy,
                        time: () => <time dateTime={version.changedAt}>{timestamp(version.changedAt)}</time>,
                        enabled: version.rule.enabled ? "yes" : "no",
                        rule: describe(version.rule),
                      })}
                      {version.backtest ? (
                        <div className="mt-1 flex flex-col gap-1">
                          <p className="font-medium text-neutral-800">{t("keptBacktest")}</p>
                          <BacktestView backtest={version.backtest} disagreements={version.backtest.disagreements} testId="kept-backtest" />
                        </div>
                      ) : null}
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
