"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { verifyAuditChain } from "@/lib/actions/verify-audit-chain";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

type Verification = Extract<Awaited<ReturnType<typeof verifyAuditChain>>, { ok: true }>["data"];

/**
 * Admins on /history: the audit log's hash chain, its head (place and hash, as the database records
 * it), and "Verify now", which walks the whole chain (GET /api/admin/audit/verify's walk) and says
 * whether it holds or names the first row changed, deleted or inserted out of order. The walk is on
 * demand: it reads every row, too much to do on every visit of the page.
 */
export function AuditChainPanel({ head }: { head: { seq: number; hash: string } | null }) {
  const t = useTranslations("history.chain");
  const format = useFormatter();
  const errorText = useErrorText();
  const [verifying, setVerifying] = useState(false);
  const [result, setResult] = useState<{ ok: true; data: Verification } | { ok: false; text: string } | null>(null);
  const shownHead = result?.ok ? result.data.head : head;

  async function verify() {
    setVerifying(true);
    const answer = await verifyAuditChain({});
    setResult(answer.ok ? { ok: true, data: answer.data } : { ok: false, text: errorText(answer.error) });
    setVerifying(false);
  }

  return (
    <section aria-labelledby="audit-chain" className="rounded-lg border border-neutral-200 bg-white p-4" data-testid="audit-chain">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="audit-chain" className="text-sm font-medium">
            {t("title")}
          </h2>
          <p className="mt-1 text-sm text-neutral-600">{t("intro")}</p>
          <p className="mt-2 text-sm" data-testid="audit-chain-head">
            {shownHead && shownHead.seq > 0 ? (
              <>
                {t("head", { seq: shownHead.seq })} <code className="font-mono text-xs [overflow-wrap:anywhere]">{shownHead.hash}</code>
              </>
            ) : (
              t("empty")
            )}
          </p>
        </div>
        <Button variant="outline" onClick={() => void verify()} disabled={verifying}>
          {verifying ? t("verifying") : t("verify")}
        </Button>
      </div>
      <div role="status" aria-live="polite" className="mt-3 empty:hidden" data-testid="audit-chain-result">
        {result === null ? null : !result.ok ? (
          <Alert variant="destructive">{result.text}</Alert>
        ) : result.data.ok ? (
          <Alert variant="success">
            {t("holds", {
              rows: result.data.rows,
              at: format.dateTime(new Date(result.data.checkedAt), { dateStyle: "medium", timeStyle: "medium" }),
            })}
          </Alert>
        ) : (
          <Alert variant="destructive">
            {t("broken", {
              kind: t(`kind.${result.data.problem!.kind}`),
              row: result.data.problem!.id ?? "—",
              seq: result.data.problem!.seq ?? "—",
            })}
            <span className="mt-1 block font-mono text-xs [overflow-wrap:anywhere]">{result.data.problem!.message}</span>
          </Alert>
        )}
      </div>
    </section>
  );
}
