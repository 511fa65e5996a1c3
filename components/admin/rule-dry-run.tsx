"use client";

import { useTranslations } from "next-intl";
import type { DryRunResult, RuleDefinition } from "@/lib/rules/dto";
import { Button } from "@/components/ui/button";

/** "Would approve 37 of 58 waiting calls", the counts by effect, and a page of the matching calls. */
export function DryRunSummary({
  result,
  effect,
  onPage,
}: {
  result: DryRunResult;
  effect: RuleDefinition["effect"];
  onPage: (page: number) => void;
}) {
  const t = useTranslations("admin.rules");
  const acting = result.counts.approve + result.counts.decline + result.counts.require_approvals + result.counts.ask;
  const main = effect === "approve" ? result.counts.approve : effect === "decline" ? result.counts.decline : acting;
  const pages = Math.max(1, Math.ceil(result.matched / result.pageSize));
  return (
    <div data-testid="dry-run" className="rounded-md border border-neutral-200 bg-neutral-50 p-3 text-sm">
      <p className="font-medium">{t("wouldDo", { effect, count: main, waiting: result.waiting })}</p>
      <p className="text-neutral-600">
        {t("matches", {
          matched: result.matched,
          approve: result.counts.approve,
          decline: result.counts.decline,
          require: result.counts.require_approvals,
          ask: result.counts.ask,
        })}
      </p>
      {result.calls.length > 0 ? (
        <ul className="mt-2 flex flex-col gap-1" aria-label={t("matchedCalls")}>
          {result.calls.map((call) => (
            <li key={`${call.runId}/${call.toolCallId}`} className="font-mono text-xs break-all">
              {t("effectWord", { effect: call.effect })} · {call.agentId} · {call.toolName ?? "?"} · {call.resourceId ?? t("noResource")} ·{" "}
              {call.args}
            </li>
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <div className="mt-2 flex items-center gap-2">
          <Button type="button" size="xs" variant="outline" disabled={result.page <= 1} onClick={() => onPage(result.page - 1)}>
            {t("previous")}
          </Button>
          <span>{t("page", { page: result.page, pages })}</span>
          <Button type="button" size="xs" variant="outline" disabled={result.page >= pages} onClick={() => onPage(result.page + 1)}>
            {t("next")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
