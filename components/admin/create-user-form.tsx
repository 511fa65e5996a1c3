"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { createUser } from "@/lib/actions/create-user";
import { ROLES } from "@/lib/auth/roles";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

export function CreateUserForm() {
  const router = useRouter();
  const t = useTranslations();
  const errorText = useErrorText();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form));
    setPending(true);
    const result = await createUser(data);
    setPending(false);
    if (result.ok) {
      form.reset();
      setMessage({ kind: "ok", text: t("users.created", { email: result.data.email }) });
      router.refresh();
    } else {
      setMessage({ kind: "error", text: errorText(result.error) });
    }
  }

  return (
    <section aria-labelledby="create-user" className="rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="create-user" className="text-base font-semibold">
        {t("users.addTitle")}
      </h2>
      <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-name">{t("users.name")}</Label>
          <Input id="new-user-name" name="name" required maxLength={100} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-email">{t("users.email")}</Label>
          <Input id="new-user-email" name="email" type="email" required />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-role">{t("users.role")}</Label>
          <Select id="new-user-role" name="role" defaultValue="reviewer">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}`)}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="new-user-password">{t("users.initialPassword")}</Label>
          <Input id="new-user-password" name="password" type="password" required minLength={10} autoComplete="new-password" />
        </div>
        <div className="sm:col-span-2 flex flex-col gap-3">
          <div role="status" aria-live="polite">
            {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
          </div>
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? t("users.adding") : t("users.add")}
            </Button>
          </div>
        </div>
      </form>
    </section>
  );
}
