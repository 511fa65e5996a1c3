"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { saveExpiryRule } from "@/lib/actions/save-expiry-rule";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { useErrorText } from "@/components/error-text";

/** A tool name as an example, the same in every language. */
const EXAMPLE_TOOL = "issueRefund";

/** Adds a rule, or replaces the rule of the same agent and tool. */
export function ExpiryRuleForm({ agents }: { agents: Array<{ id: string; name: string }> }) {
  const router = useRouter();
  const t = useTranslations("admin");
  const errorText = useErrorText();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const result = await saveExpiryRule(Object.fromEntries(new FormData(form)));
    setPending(false);
    if (result.ok) {
      const { agentId, toolName, afterMinutes, mode, warnMinutes } = result.data;
      setMessage({
        kind: "ok",
        text: t("expiry.saved", {
          tool: toolName || t("expiry.everyTool"),
          agent: agentId,
          minutes: afterMinutes,
          mode,
          warn: warnMinutes ?? 0,
        }),
      });
      form.reset();
      router.refresh();
    } else {
      setMessage({ kind: "error", text: errorText(result.error) });
    }
  }

  return (
    <section aria-labelledby="add-expiry-rule" className="rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="add-expiry-rule" className="text-base font-semibold">
        {t("expiry.formTitle")}
      </h2>
      <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-agent">{t("agent")}</Label>
          <Select id="expiry-agent" name="agentId" required defaultValue={agents[0]?.id}>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name} ({agent.id})
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-tool">{t("expiry.toolLabel")}</Label>
          <Input id="expiry-tool" name="toolName" maxLength={256} placeholder={EXAMPLE_TOOL} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-minutes">{t("expiry.afterLabel")}</Label>
          <Input id="expiry-minutes" name="afterMinutes" type="number" min={1} max={525600} required defaultValue={60} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-mode">{t("expiry.atExpiry")}</Label>
          <Select id="expiry-mode" name="mode" defaultValue="decline">
            <option value="decline">{t("expiry.modeDecline")}</option>
            <option value="mark">{t("expiry.modeMark")}</option>
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-warn">{t("expiry.warnLabel")}</Label>
          <Input id="expiry-warn" name="warnMinutes" type="number" min={1} max={525599} placeholder="15" />
        </div>
        <div className="flex flex-col gap-3 sm:col-span-3">
          <div role="status" aria-live="polite">
            {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
          </div>
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? t("saving") : t("expiry.saveRule")}
            </Button>
          </div>
        </div>
      </form>
    </section>
  );
}
