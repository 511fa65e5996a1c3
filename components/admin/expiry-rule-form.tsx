"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { saveExpiryRule } from "@/lib/actions/save-expiry-rule";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

/** Adds a rule, or replaces the rule of the same agent and tool. */
export function ExpiryRuleForm({ agents }: { agents: Array<{ id: string; name: string }> }) {
  const router = useRouter();
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
      const warning = warnMinutes ? `, warned ${warnMinutes} min before` : "";
      setMessage({
        kind: "ok",
        text: `Saved: ${toolName || "every tool"} of ${agentId} expires after ${afterMinutes} min (${mode === "mark" ? "marked expired" : "declined"}${warning}).`,
      });
      form.reset();
      router.refresh();
    } else {
      setMessage({ kind: "error", text: result.error.message });
    }
  }

  return (
    <section aria-labelledby="add-expiry-rule" className="rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="add-expiry-rule" className="text-base font-semibold">
        Add or change a rule
      </h2>
      <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-agent">Agent</Label>
          <Select id="expiry-agent" name="agentId" required defaultValue={agents[0]?.id}>
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name} ({agent.id})
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-tool">Tool (blank: every tool)</Label>
          <Input id="expiry-tool" name="toolName" maxLength={256} placeholder="issueRefund" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-minutes">Expires after (minutes)</Label>
          <Input id="expiry-minutes" name="afterMinutes" type="number" min={1} max={525600} required defaultValue={60} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-mode">At expiry</Label>
          <Select id="expiry-mode" name="mode" defaultValue="decline">
            <option value="decline">Decline through the agent</option>
            <option value="mark">Only mark expired (the agent is not told)</option>
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="expiry-warn">Warn before (minutes, blank: no warning)</Label>
          <Input id="expiry-warn" name="warnMinutes" type="number" min={1} max={525599} placeholder="15" />
        </div>
        <div className="flex flex-col gap-3 sm:col-span-3">
          <div role="status" aria-live="polite">
            {message ? <Alert variant={message.kind === "ok" ? "success" : "destructive"}>{message.text}</Alert> : null}
          </div>
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save rule"}
            </Button>
          </div>
        </div>
      </form>
    </section>
  );
}
