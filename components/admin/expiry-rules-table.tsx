"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteExpiryRule } from "@/lib/actions/delete-expiry-rule";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useErrorText } from "@/components/error-text";
import { useTimestamp } from "@/components/time";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

type Rule = {
  agentId: string;
  toolName: string;
  afterMinutes: number;
  mode: string;
  warnMinutes: number | null;
  updatedBy: string;
  updatedAt: string;
};

export function ExpiryRulesTable({ rules }: { rules: Rule[] }) {
  const router = useRouter();
  const t = useTranslations("admin");
  const errorText = useErrorText();
  const timestamp = useTimestamp();
  const [error, setError] = useState<string | null>(null);
  if (rules.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 bg-white p-6 text-center text-sm text-neutral-600">
        {t("expiry.none")}
      </p>
    );
  }
  async function remove(rule: Rule) {
    const result = await deleteExpiryRule({ agentId: rule.agentId, toolName: rule.toolName });
    setError(result.ok ? null : errorText(result.error));
    router.refresh();
  }
  return (
    <div className="flex flex-col gap-3">
      {error ? <Alert variant="destructive">{error}</Alert> : null}
      <div className="rounded-lg border border-neutral-200 bg-white">
        <Table>
          <TableCaption>{t("expiry.caption")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("agent")}</TableHead>
              <TableHead>{t("tool")}</TableHead>
              <TableHead>{t("expiry.expiresAfter")}</TableHead>
              <TableHead>{t("expiry.atExpiry")}</TableHead>
              <TableHead>{t("expiry.warning")}</TableHead>
              <TableHead>{t("lastChanged")}</TableHead>
              <TableHead>
                <span className="sr-only">{t("actions")}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rules.map((rule) => (
              <TableRow key={`${rule.agentId}\u0000${rule.toolName}`} data-expiry-rule={`${rule.agentId}/${rule.toolName}`}>
                <TableCell className="font-mono text-xs">{rule.agentId}</TableCell>
                <TableCell className="font-mono text-xs">{rule.toolName || t("expiry.everyTool")}</TableCell>
                <TableCell>{t("expiry.minutes", { minutes: rule.afterMinutes })}</TableCell>
                <TableCell>{rule.mode === "mark" ? t("expiry.marked") : t("expiry.declined")}</TableCell>
                <TableCell>{rule.warnMinutes ? t("expiry.minutesBefore", { minutes: rule.warnMinutes }) : t("expiry.noWarning")}</TableCell>
                <TableCell className="text-xs text-neutral-600">
                  {t.rich("changedBy", {
                    by: rule.updatedBy,
                    time: () => <time dateTime={rule.updatedAt}>{timestamp(rule.updatedAt)}</time>,
                  })}
                </TableCell>
                <TableCell>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => remove(rule)}
                    aria-label={t("expiry.removeLabel", { tool: rule.toolName || t("expiry.everyTool"), agent: rule.agentId })}
                  >
                    {t("expiry.remove")}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
