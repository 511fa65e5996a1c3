"use client";

import { useState, type FormEvent } from "react";
import { setNotificationPreference } from "@/lib/actions/set-notification-preference";
import { EMAIL_MODES, EMAIL_MODE_LABELS, type EmailMode } from "@/lib/notifications/modes";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** The reviewer's email choice: right away, an hourly digest, or off. */
export function NotificationPreferenceForm({ current }: { current: EmailMode }) {
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await setNotificationPreference(Object.fromEntries(new FormData(event.currentTarget)));
    setPending(false);
    setMessage(
      result.ok
        ? { kind: "ok", text: `Saved: ${EMAIL_MODE_LABELS[result.data.email].label.toLowerCase()}.` }
        : { kind: "error", text: result.error.message },
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium">Email me about calls waiting for a reviewer</legend>
        {EMAIL_MODES.map((mode) => (
          <label key={mode} className="flex items-start gap-3 text-sm">
            <input type="radio" name="email" value={mode} defaultChecked={mode === current} className="mt-1" />
            <span>
              <span className="font-medium">{EMAIL_MODE_LABELS[mode].label}</span>
              <span className="block text-neutral-600">{EMAIL_MODE_LABELS[mode].detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div role="status" aria-live="polite">
        {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}
