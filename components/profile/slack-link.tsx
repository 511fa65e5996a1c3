"use client";

import { useState } from "react";
import { createSlackLinkCode } from "@/lib/actions/create-slack-link-code";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** "Link Slack": a one-time code the reviewer sends to the Slack app, so their clicks there act as them. */
export function SlackLink({ linkedAs }: { linkedAs: string | null }) {
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
    } else setError(result.error.message);
  }

  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="text-neutral-600">
        {linkedAs
          ? `Linked to Slack user ${linkedAs}. Linking again replaces it.`
          : "Not linked: Approve and Decline in Slack messages do nothing for you yet."}
      </p>
      <div role="status" aria-live="polite">
        {code ? (
          <Alert variant="success" title="Send this to the Slack app">
            <code className="font-mono text-base" data-testid="slack-link-code">{`/approvals link ${code.code}`}</code>
            <span className="block">It works once, until {new Date(code.expiresAt).toLocaleTimeString()}.</span>
          </Alert>
        ) : null}
        {error ? <Alert variant="destructive">{error}</Alert> : null}
      </div>
      <div>
        <Button type="button" onClick={link} disabled={pending}>
          {pending ? "Creating a code…" : "Link Slack"}
        </Button>
      </div>
    </div>
  );
}
