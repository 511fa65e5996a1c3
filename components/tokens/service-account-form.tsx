"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { createServiceAccount } from "@/lib/actions/create-service-account";
import { ROLES } from "@/lib/auth/roles";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

/** A named principal for a machine, with a role of its own; its tokens are made with the form above. */
export function ServiceAccountForm() {
  const router = useRouter();
  const t = useTranslations("tokens");
  const errorText = useErrorText();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = await createServiceAccount(Object.fromEntries(new FormData(form)));
    if (!result.ok) return setMessage({ kind: "error", text: errorText(result.error) });
    form.reset();
    setMessage({ kind: "ok", text: t("accountCreated", { name: result.data.name }) });
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2" aria-label={t("accountTitle")}>
      <div className="flex flex-col gap-1">
        <Label htmlFor="account-name">{t("accountName")}</Label>
        <Input
          id="account-name"
          name="name"
          required
          maxLength={63}
          pattern="[a-z0-9][a-z0-9._\-]*"
          placeholder={t("accountNamePlaceholder")}
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="account-role">{t("accountRole")}</Label>
        <Select id="account-role" name="role" defaultValue="support">
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`role.${role}`)}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-3 sm:col-span-2">
        <div role="status" aria-live="polite">
          {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
        </div>
        <div>
          <Button type="submit">{t("accountCreate")}</Button>
        </div>
      </div>
    </form>
  );
}
