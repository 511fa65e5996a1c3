"use client";

import { useTranslations } from "next-intl";
import type { BacktestDisagreement, BacktestSummary } from "@/lib/rules/dto";
import { Button } from "@/components/ui/button";
import { useDuration, useTimestamp } from "@/components/time";

/**
 * What a rule would have decided over a past period (lib/rules/backtest.ts): its matches by effect,
 * how often people decided the other way, the waits it would have saved, the decisions counted
 * apart, and the disagreements, each with who decided, when, why and a link to the call's history.
 * Every value is rendered as text, however hostile a reviewer's reason.
 */
export function BacktestView({
  backtest,
  disagreements,
  page,
  onPage,
  testId = "backtest",
}: {
  backtest: BacktestSummary;
  disagreements: BacktestDisagreement[];
  /** A backtest from the API, paged: the page shown and how to get another. */
  page?: { page: number; pageSize: number };
  onPage?: (page: number) => void;
  testId?: string;
}) {
  const t = useTranslations("admin.rules.backtest");
  const timestamp = useTimestamp();
  const duration = useDuration();
  const decided = backtest.agreed + backtest.disagreed;
  const pages = page ? Math.max(1, Math.ceil(backtest.disagreed / page.pageSize)) : 1;
  return (
    <div data-testid={testId} className="flex flex-col gap-1 rounded-md border border-neutral-200 bg-neutral-50 p-3 text-sm">
      <p className="font-medium">
        {t.rich("period", {
          days: backtest.days,
          from: () => <time dateTime={backtest.from}>{timestamp(backtest.from)}</time>,
          to: () => <time dateTime={backtest.to}>{timestamp(backtest.to)}</time>,
        })}
      </p>
      <p>
        {t("matched", {
          include: backtest.include,
          matched: backtest.matched,
          approve: backtest.wouldDecide.approve,
          decline: backtest.wouldDecide.decline,
          require: backtest.wouldDecide.require_approvals,
          ask: backtest.wouldDecide.ask,
        })}
      </p>
      <p className={backtest.disagreed > 0 ? "font-medium text-red-800" : "text-emerald-800"}>
        {t("disagreed", { disagreed: backtest.disagreed, decided })}
      </p>
      <p>{t("waitSaved", { time: duration(backtest.waitSavedMs), unknown: backtest.waitsUnknown })}</p>
      <p className="text-neutral-600">
        {t("others", {
          rule: backtest.others.rule.matched,
          ruleAgainst: backtest.others.rule.disagreed,
          suggestion: backtest.others.suggestion.matched,
          suggestionAgainst: backtest.others.suggestion.disagreed,
          expiry: backtest.others.expiry.matched,
        })}
      </p>
      {disagreements.length > 0 ? (
        <ul className="mt-1 flex flex-col gap-2" aria-label={t("disagreements")}>
          {disagreements.map((disagreement) => (
            <Disagreement key={`${disagreement.runId}/${disagreement.toolCallId}`} disagreement={disagreement} />
          ))}
        </ul>
      ) : null}
      {!page && backtest.disagreed > disagreements.length ? (
        <p className="text-neutral-600">{t("moreDisagreements", { shown: disagreements.length })}</p>
      ) : null}
      {page && onPage && pages > 1 ? (
        <div className="mt-1 flex items-center gap-2">
          <Button type="button" size="xs" variant="outline" disabled={page.page <= 1} onClick={() => onPage(page.page - 1)}>
            {t("previous")}
          </Button>
          <span>{t("page", { page: page.page, pages })}</span>
          <Button type="button" size="xs" variant="outline" disabled={page.page >= pages} onClick={() => onPage(page.page + 1)}>
            {t("next")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** One past decision the rule would have gone against: who decided what, when and why; what the rule would have done. */
function Disagreement({ disagreement }: { disagreement: BacktestDisagreement }) {
  const t = useTranslations("admin.rules.backtest");
  const timestamp = useTimestamp();
  return (
    <li data-testid="disagreement" className="rounded border border-red-200 bg-white p-2 break-words">
      <p>
        {t.rich("decidedBy", {
          decided: disagreement.decided,
          by: disagreement.decidedBy,
          reviewer: disagreement.reviewer,
          wouldDo: disagreement.wouldDo,
          time: () => <time dateTime={disagreement.decidedAt}>{timestamp(disagreement.decidedAt)}</time>,
        })}
      </p>
      {disagreement.reason ? (
        <p>
          {t("reason")} <span className="whitespace-pre-wrap">{disagreement.reason}</span>
        </p>
      ) : null}
      <p className="font-mono text-xs text-neutral-700">
        {disagreement.agentId} · {disagreement.toolName ?? "?"} · {disagreement.resourceId ?? t("noResource")} · {disagreement.args}
      </p>
      <a className="text-xs underline" href={`/history?runId=${encodeURIComponent(disagreement.runId)}`}>
        {t("history")}
      </a>
    </li>
  );
}
