"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { createSlackLinkCode } from "@/lib/actions/create-slack-link-code";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useErrorText } from "@/components/error-text";

/** "Link Slack": a one-time code the reviewer sends to the Slack app, so their clicks there act as them. */
export function SlackLink({ linkedAs }: { linkedAs: string | null }) {
  const t = useTranslations("profile");
  const format = useFormatter();
  const errorText = useErrorText();
  const [code, setCode] = useState<{ code: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function link() {
    setPending(true);
    const result = await createSlackLinkCode({});
    setPending(false);
    if (result.ok) {
      setCode(result.data);
      setError(null);
    } else setError(errorText(result.error));
  }

  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="text-neutral-600">{linkedAs ? t("slackLinked", { user: linkedAs }) : t("slackNotLinked")}</p>
      <div role="status" aria-live="polite">
        {code ? (
          <Alert variant="success" title={t("slackSendThis")}>
            <code className="font-mono text-base" data-testid="slack-link-code">{`/approvals link ${code.code}`}</code>
            <span className="block">
              {t("slackCodeValid", { time: format.dateTime(new Date(code.expiresAt), { timeStyle: "medium" }) })}
            </span>
          </Alert>
        ) : null}
        {error ? <Alert variant="destructive">{error}</Alert> : null}
      </div>
      <div>
        <Button type="button" onClick={link} disabled={pending}>
          {pending ? t("slackCreating") : t("slackLink")}
        </Button>
      </div>
    </div>
  );
}
