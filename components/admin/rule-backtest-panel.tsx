"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { backtestRule } from "@/lib/actions/backtest-rule";
import type { BacktestResult } from "@/lib/rules/dto";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useErrorText } from "@/components/error-text";
import { BacktestView } from "./rule-backtest";

const PAGE_SIZE = 20;

/**
 * "Backtest over the last N days" beside the dry run: the rule as the form holds it, replayed over
 * the decisions of the period (POST /api/admin/rules/backtest's server action). Changes nothing.
 */
export function RuleBacktestPanel({ readRule, unreadable }: { readRule: () => Record<string, unknown> | undefined; unreadable: string }) {
  const t = useTranslations("admin.rules.backtest");
  const errorText = useErrorText();
  const [days, setDays] = useState("30");
  const [shown, setShown] = useState<{ rule: Record<string, unknown>; days: number; result: BacktestResult } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function run(rule: Record<string, unknown>, period: number, page = 1) {
    setPending(true);
    const result = await backtestRule({ rule, days: period, page, pageSize: PAGE_SIZE });
    setPending(false);
    if (result.ok) {
      setShown({ rule, days: period, result: result.data });
      setProblem(null);
    } else {
      setShown(null);
      setProblem(errorText(result.error));
    }
  }

  function start() {
    const rule = readRule();
    if (!rule) return setProblem(unreadable);
    // The number as typed: the server checks it (1 to 90 days) and says what is wrong.
    void run(rule, Number(days));
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="rule-backtest-days">{t("days")}</Label>
          <Input
            id="rule-backtest-days"
            type="number"
            min={1}
            max={90}
            value={days}
            onChange={(event) => setDays(event.target.value)}
            className="w-28"
          />
        </div>
        <Button type="button" variant="outline" disabled={pending} onClick={start}>
          {t("run")}
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {problem ? <Alert variant="destructive">{problem}</Alert> : null}
      </div>
      {shown ? (
        <BacktestView
          backtest={shown.result}
          disagreements={shown.result.disagreements}
          page={{ page: shown.result.page, pageSize: shown.result.pageSize }}
          onPage={(page) => void run(shown.rule, shown.days, page)}
        />
      ) : null}
    </div>
  );
}
