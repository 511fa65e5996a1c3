"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { acceptSuggestedRule } from "@/lib/actions/accept-suggested-rule";
import { suggestRules } from "@/lib/actions/suggest-rules";
import type { ProposalsResult, RuleProposal } from "@/lib/rules/dto";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useErrorText } from "@/components/error-text";
import { useDescribeRule } from "./describe-rule";
import { BacktestView } from "./rule-backtest";
import { FormField } from "@/components/ui/filter-form";

const PAGE_SIZE = 10;

/** What the search was run with, kept to page through it and to run it again after a rule is created. */
interface Search {
  days: number;
  minCalls: number;
  maxWrongShare: number;
  agentId: string;
  toolName: string;
  resourcePrefix: string;
}

/**
 * Suggested rules (lib/rules/proposals.ts): rules found in what people decided, each with its
 * backtest; "Create disabled" creates one, disabled, its backtest kept with version 1. Searched on
 * demand, not with the page: over a large history it takes seconds.
 */
export function SuggestedRules() {
  const router = useRouter();
  const t = useTranslations("admin.rules.suggested");
  const errorText = useErrorText();
  const describe = useDescribeRule();
  const [search, setSearch] = useState<Search | null>(null);
  const [result, setResult] = useState<ProposalsResult | null>(null);
  const [message, setMessage] = useState<{ kind: "success" | "destructive"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function find(next: Search, page = 1) {
    setPending(true);
    const found = await suggestRules({ ...next, page, pageSize: PAGE_SIZE });
    setPending(false);
    setSearch(next);
    if (found.ok) setResult(found.data);
    else {
      setResult(null);
      setMessage({ kind: "destructive", text: errorText(found.error) });
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    setMessage(null);
    // Numbers as typed (the server checks them: 1 to 90 days, a share from 0 to 1).
    void find({
      days: Number(text("days")),
      minCalls: Number(text("minCalls")),
      maxWrongShare: Number(text("maxWrongPercent")) / 100,
      agentId: text("agentId"),
      toolName: text("toolName"),
      resourcePrefix: text("resourcePrefix"),
    });
  }

  async function create(proposal: RuleProposal) {
    if (!search) return;
    setPending(true);
    const created = await acceptSuggestedRule({ rule: proposal.rule, days: search.days });
    setPending(false);
    if (!created.ok) return setMessage({ kind: "destructive", text: errorText(created.error) });
    setMessage({ kind: "success", text: t("created", { name: created.data.name }) });
    router.refresh();
    await find(search, result?.page ?? 1);
  }

  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;
  return (
    <section aria-labelledby="suggested-rules" className="rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="suggested-rules" className="text-base font-semibold">
        {t("title")}
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-neutral-600">{t("intro")}</p>
      <form onSubmit={submit} className="mt-3 grid gap-3 sm:grid-cols-3">
        <FormField id="suggest-days" label={t("days")}>
          <Input id="suggest-days" name="days" type="number" min={1} max={90} defaultValue={30} required />
        </FormField>
        <FormField id="suggest-min-calls" label={t("minCalls")}>
          <Input id="suggest-min-calls" name="minCalls" type="number" min={1} defaultValue={20} required />
        </FormField>
        <FormField id="suggest-max-wrong" label={t("maxWrong")}>
          <Input id="suggest-max-wrong" name="maxWrongPercent" type="number" min={0} max={100} step="any" defaultValue={0} required />
        </FormField>
        <FormField id="suggest-agent" label={t("agent")}>
          <Input id="suggest-agent" name="agentId" maxLength={200} />
        </FormField>
        <FormField id="suggest-tool" label={t("tool")}>
          <Input id="suggest-tool" name="toolName" maxLength={200} />
        </FormField>
        <FormField id="suggest-resource" label={t("resourcePrefix")}>
          <Input id="suggest-resource" name="resourcePrefix" maxLength={200} />
        </FormField>
        <div className="sm:col-span-3">
          <Button type="submit" disabled={pending}>
            {pending ? t("finding") : t("find")}
          </Button>
        </div>
      </form>
      <div role="status" aria-live="polite" className="mt-3">
        {message ? <Alert variant={message.kind}>{message.text}</Alert> : null}
        {result ? (
          <p className="text-sm">{t("summary", { total: result.total, considered: result.considered, days: result.days })}</p>
        ) : null}
      </div>
      {result && result.ratedHigh.length > 0 ? (
        <p className="mt-1 text-sm text-neutral-600">
          {t("ratedHigh", { tools: result.ratedHigh.map((rated) => `${rated.agentId} · ${rated.toolName}`).join(", ") })}
        </p>
      ) : null}
      {result && result.proposals.length > 0 ? (
        <ol className="mt-3 flex flex-col gap-3" aria-label={t("listLabel")}>
          {result.proposals.map((proposal) => (
            <li key={proposal.key} data-testid="proposal" className="flex flex-col gap-2 rounded-md border border-neutral-200 p-3 text-sm">
              <p className="font-medium break-words">{proposal.rule.name}</p>
              <p className="break-words text-neutral-700">{describe(proposal.rule)}</p>
              <BacktestView backtest={proposal.backtest} disagreements={proposal.backtest.disagreements} testId="proposal-backtest" />
              <div>
                <Button type="button" variant="secondary" disabled={pending} onClick={() => void create(proposal)}>
                  {t("create")}
                </Button>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {result && search && pages > 1 ? (
        <div className="mt-2 flex items-center gap-2 text-sm">
          <Button
            type="button"
            size="xs"
            variant="outline"
            disabled={pending || result.page <= 1}
            onClick={() => void find(search, result.page - 1)}
          >
            {t("previous")}
          </Button>
          <span>{t("page", { page: result.page, pages })}</span>
          <Button
            type="button"
            size="xs"
            variant="outline"
            disabled={pending || result.page >= pages}
            onClick={() => void find(search, result.page + 1)}
          >
            {t("next")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
