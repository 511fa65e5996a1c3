"use client";

import { LocaleOptions } from "@/components/locale-options";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { createWebhook } from "@/lib/actions/create-webhook";
import { EVENT_TYPES } from "@/lib/events/types";
import { DEFAULT_LOCALE } from "@/lib/i18n/locales";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useErrorText } from "@/components/error-text";

/** An address, the same in every language. */
const EXAMPLE_URL = "https://example.com/hooks/approvals";

export function CreateWebhookForm() {
  const t = useTranslations("admin");
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setPending(true);
    const result = await createWebhook({
      url: data.get("url"),
      eventTypes: data.getAll("eventTypes"),
      slack: data.get("slack") === "on",
      locale: data.get("locale"),
    });
    setPending(false);
    if (result.ok) {
      form.reset();
      setSecret(data.get("slack") === "on" ? null : result.data.secret);
      setMessage({ kind: "ok", text: t("webhooks.added") });
      router.refresh();
    } else {
      setSecret(null);
      setMessage({ kind: "error", text: errorText(result.error) });
    }
  }

  return (
    <section aria-labelledby="create-webhook" className="rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="create-webhook" className="text-base font-semibold">
        {t("webhooks.addTitle")}
      </h2>
      <form onSubmit={submit} className="mt-4 flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor="webhook-url">{t("webhooks.url")}</Label>
          <Input id="webhook-url" name="url" type="url" required placeholder={EXAMPLE_URL} />
        </div>
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-1 text-sm font-medium">{t("webhooks.events")}</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 font-mono text-sm">
              <input type="checkbox" name="eventTypes" value={type} defaultChecked={type === "call.waiting"} />
              {type}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="slack" />
          {t("webhooks.slack")}
        </label>
        <div className="flex flex-col gap-1">
          <Label htmlFor="webhook-locale">{t("webhooks.language")}</Label>
          <select
            id="webhook-locale"
            name="locale"
            defaultValue={DEFAULT_LOCALE}
            aria-describedby="webhook-locale-hint"
            className="h-9 w-fit rounded-md border border-neutral-300 bg-white px-2 text-sm"
          >
            <LocaleOptions />
          </select>
          <p id="webhook-locale-hint" className="text-xs text-neutral-600">
            {t("webhooks.languageHint")}
          </p>
        </div>
        <div role="status" aria-live="polite" className="flex flex-col gap-2">
          {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
          {secret ? (
            <Alert variant="success">
              {t("webhooks.secret")}{" "}
              <code className="break-all font-mono text-xs" data-testid="webhook-secret">
                {secret}
              </code>
            </Alert>
          ) : null}
        </div>
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? t("adding") : t("webhooks.add")}
          </Button>
        </div>
      </form>
    </section>
  );
}
