"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { createOwnToken } from "@/lib/actions/create-own-token";
import { createToken } from "@/lib/actions/create-token";
import { SCOPES, scopeUsableBy } from "@/lib/auth/token-scopes";
import type { Role } from "@/lib/auth/roles";
import type { ServiceAccountDto } from "@/lib/auth/token-dto";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

/**
 * Creates a token for you (/profile) or, on /admin/tokens, for you or a service account. The secret
 * is shown here once: the server keeps only its hash, so it cannot be shown again.
 */
export function CreateTokenForm({ role, serviceAccounts }: { role: Role | null; serviceAccounts?: ServiceAccountDto[] }) {
  const router = useRouter();
  const t = useTranslations("tokens");
  const errorText = useErrorText();
  const [owner, setOwner] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [pending, setPending] = useState(false);
  const ownerRole = serviceAccounts?.find((account) => account.id === owner)?.role ?? role;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const days = String(data.get("expiresInDays") ?? "").trim();
    const input = {
      name: String(data.get("name") ?? ""),
      scopes: data.getAll("scopes").map(String),
      expiresInDays: days === "" ? null : Number(days),
    };
    setPending(true);
    setError(null);
    setCreated(null);
    const result = serviceAccounts ? await createToken(owner ? { ...input, serviceAccountId: owner } : input) : await createOwnToken(input);
    setPending(false);
    if (!result.ok) return setError(errorText(result.error));
    form.reset();
    setCreated({ name: result.data.name, token: result.data.token });
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2" aria-label={t("createTitle")}>
      <div className="flex flex-col gap-1">
        <Label htmlFor="token-name">{t("name")}</Label>
        <Input id="token-name" name="name" required maxLength={100} placeholder={t("namePlaceholder")} />
      </div>
      {serviceAccounts ? (
        <div className="flex flex-col gap-1">
          <Label htmlFor="token-owner">{t("owner")}</Label>
          <Select id="token-owner" value={owner} onChange={(event) => setOwner(event.target.value)}>
            <option value="">{t("ownerYou")}</option>
            {serviceAccounts.map((account) => (
              <option key={account.id} value={account.id}>
                {t("ownerService", { name: account.name, role: account.role })}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium">{t("scopes")}</legend>
        {SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="scopes" value={scope} disabled={!scopeUsableBy(ownerRole, scope)} />
            <code className="font-mono text-xs">{scope}</code>
            <span className="text-neutral-600">{t(`scope.${scope}`)}</span>
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-1">
        <Label htmlFor="token-expiry">{t("expiresInDays")}</Label>
        <Input id="token-expiry" name="expiresInDays" type="number" min={1} max={3650} placeholder={t("noExpiry")} />
      </div>
      <div className="flex flex-col gap-3 sm:col-span-2">
        <div role="status" aria-live="polite">
          {error ? <Alert variant="destructive">{error}</Alert> : null}
          {created ? (
            <Alert variant="success" title={t("createdTitle", { name: created.name })}>
              <p>{t("createdOnce")}</p>
              <code data-testid="new-token" className="mt-2 block break-all rounded bg-white p-2 font-mono text-xs">
                {created.token}
              </code>
            </Alert>
          ) : null}
        </div>
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? t("creating") : t("create")}
          </Button>
        </div>
      </div>
    </form>
  );
}
