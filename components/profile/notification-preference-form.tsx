"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { setNotificationPreference } from "@/lib/actions/set-notification-preference";
import { EMAIL_MODES, type EmailMode } from "@/lib/notifications/modes";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** The reviewer's email choice: right away, an hourly digest, or off. */
export function NotificationPreferenceForm({ current }: { current: EmailMode }) {
  const t = useTranslations();
  const errorText = useErrorText();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await setNotificationPreference(Object.fromEntries(new FormData(event.currentTarget)));
    setPending(false);
    setMessage(
      result.ok
        ? { kind: "ok", text: t("profile.emailSaved", { mode: t(`profile.emailModes.${result.data.email}.label`) }) }
        : { kind: "error", text: errorText(result.error) },
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium">{t("profile.emailLegend")}</legend>
        {EMAIL_MODES.map((mode) => (
          <label key={mode} className="flex items-start gap-3 text-sm">
            <input type="radio" name="email" value={mode} defaultChecked={mode === current} className="mt-1" />
            <span>
              <span className="font-medium">{t(`profile.emailModes.${mode}.label`)}</span>
              <span className="block text-neutral-600">{t(`profile.emailModes.${mode}.detail`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div role="status" aria-live="polite">
        {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? t("common.saving") : t("common.save")}
        </Button>
      </div>
    </form>
  );
}
