"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { authClient, signInWithSso } from "@/lib/auth/client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export function SignInForm({ next, ssoName, initialError = null }: { next: string; ssoName: string | null; initialError?: string | null }) {
  const router = useRouter();
  const t = useTranslations("signIn");
  const emailId = useId();
  const passwordId = useId();
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const { error: failure } = await authClient.signIn.email({
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    setPending(false);
    if (failure) {
      setError(failure.status === 429 ? t("tooMany") : failure.status === 401 || failure.status === 400 ? t("wrongPassword") : t("failed"));
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    <div className="mt-6 flex flex-col gap-4">
      <form onSubmit={signIn} className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
        <div className="flex flex-col gap-1">
          <Label htmlFor={emailId}>{t("email")}</Label>
          <Input id={emailId} name="email" type="email" autoComplete="username" required />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor={passwordId}>{t("password")}</Label>
          <Input id={passwordId} name="password" type="password" autoComplete="current-password" required />
        </div>
        {error ? (
          <Alert variant="destructive" role="alert">
            {error}
          </Alert>
        ) : null}
        <Button type="submit" disabled={pending}>
          {pending ? t("submitting") : t("submit")}
        </Button>
      </form>
      {ssoName ? (
        <Button variant="outline" onClick={async () => setError(await signInWithSso(next))}>
          {t("withSso", { provider: ssoName })}
        </Button>
      ) : null}
    </div>
  );
}
