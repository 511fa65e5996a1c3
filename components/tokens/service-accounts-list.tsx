"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { setServiceAccountDisabled } from "@/lib/actions/set-service-account-disabled";
import type { ServiceAccountDto } from "@/lib/auth/token-dto";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/**
 * The service accounts of /admin/tokens, each with Disable (its tokens stop working at once on every
 * server) or Enable, both confirmed first: disabling stops every machine that uses the account.
 */
export function ServiceAccountsList({ accounts }: { accounts: ServiceAccountDto[] }) {
  const router = useRouter();
  const t = useTranslations("tokens");
  const format = useFormatter();
  const errorText = useErrorText();
  const [confirming, setConfirming] = useState<ServiceAccountDto | null>(null);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const disabling = confirming !== null && confirming.disabledAt === null;

  async function change(account: ServiceAccountDto, disabled: boolean) {
    setConfirming(null);
    setMessage(null);
    const result = await setServiceAccountDisabled({ id: account.id, disabled });
    setMessage(
      result.ok
        ? { kind: "ok", text: t(disabled ? "accountDisabled" : "accountEnabled", { name: account.name }) }
        : { kind: "error", text: errorText(result.error) },
    );
    router.refresh();
  }

  if (accounts.length === 0) return null;
  return (
    <div className="flex flex-col gap-3">
      <div role="status" aria-live="polite">
        {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
      </div>
      <ul className="flex flex-col divide-y divide-neutral-200 text-sm" aria-label={t("accountsTitle")}>
        {accounts.map((account) => (
          <li key={account.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-service-account={account.name}>
            <span className="font-mono">{account.name}</span>
            <span className="text-neutral-600">{t(`role.${account.role}`)}</span>
            {account.disabledAt ? (
              <>
                <Badge variant="secondary">{t("accountState.disabled")}</Badge>
                <span className="text-xs text-neutral-500 [overflow-wrap:anywhere]">
                  {t("disabledBy", {
                    who: account.disabledBy ?? "",
                    when: format.dateTime(new Date(account.disabledAt), { dateStyle: "medium", timeStyle: "short" }),
                  })}
                </span>
              </>
            ) : (
              <Badge variant="blue">{t("accountState.enabled")}</Badge>
            )}
            <Button
              className="ml-auto"
              variant="outline"
              size="sm"
              onClick={() => setConfirming(account)}
              aria-label={t(account.disabledAt ? "enableOf" : "disableOf", { name: account.name })}
            >
              {t(account.disabledAt ? "enable" : "disable")}
            </Button>
          </li>
        ))}
      </ul>
      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? t(disabling ? "disableTitle" : "enableTitle", { name: confirming.name }) : ""}
        description={confirming ? t(disabling ? "disableBody" : "enableBody", { name: confirming.name }) : undefined}
      >
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => setConfirming(null)}>
            {t("cancel")}
          </Button>
          <Button
            autoFocus
            variant={disabling ? "destructive" : "default"}
            onClick={() => void (confirming && change(confirming, disabling))}
          >
            {confirming ? t(disabling ? "disableOf" : "enableOf", { name: confirming.name }) : ""}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
