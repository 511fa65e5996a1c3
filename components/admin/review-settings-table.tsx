"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useTimestamp } from "@/components/time";
import { useErrorText } from "@/components/error-text";
import { useState, useTransition } from "react";
import { saveReviewSetting } from "@/lib/actions/save-review-setting";
import { Alert } from "@/components/ui/alert";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

type AgentRow = {
  id: string;
  name: string;
  kind: "agent" | "workflow";
  onlyAssigneeDecides: boolean;
  allowTrust: boolean;
  updatedBy: string | null;
  updatedAt: string | null;
};

/** One row per agent the console serves, with its "only the assignee decides" and "allow trust" switches. */
export function ReviewSettingsTable({ agents }: { agents: AgentRow[] }) {
  const router = useRouter();
  const t = useTranslations("agents");
  const timestamp = useTimestamp();
  const errorText = useErrorText();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ kind: "success" | "destructive"; text: string } | null>(null);

  /** Turns one switch of one agent on or off (the other switch keeps its value). */
  const toggle = (agent: AgentRow, change: { onlyAssigneeDecides: boolean } | { allowTrust: boolean }) =>
    startTransition(async () => {
      const result = await saveReviewSetting({ agentId: agent.id, ...change }).catch(() => null);
      if (!result) setMessage({ kind: "destructive", text: t("unreachable") });
      else if (!result.ok) setMessage({ kind: "destructive", text: errorText(result.error) });
      else {
        const text =
          "allowTrust" in change
            ? t(change.allowTrust ? "trustOn" : "trustOff", { agent: agent.name })
            : t(change.onlyAssigneeDecides ? "onlyAssigneeOn" : "onlyAssigneeOff", { agent: agent.name });
        setMessage({ kind: "success", text });
        router.refresh();
      }
    });

  return (
    <div className="flex flex-col gap-3">
      <div role="status" aria-live="polite">
        {message ? <Alert variant={message.kind}>{message.text}</Alert> : null}
      </div>
      <div className="rounded-lg border border-neutral-200 bg-white">
        <Table>
          <TableCaption>{t("caption")}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("agent")}</TableHead>
              <TableHead>{t("onlyAssignee")}</TableHead>
              <TableHead>{t("allowTrust")}</TableHead>
              <TableHead>{t("lastChanged")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {agents.map((agent) => (
              <TableRow key={agent.id} data-agent={agent.id}>
                <TableCell>
                  <span className="font-medium">{agent.name}</span> <span className="font-mono text-xs text-neutral-500">{agent.id}</span>
                </TableCell>
                <TableCell>
                  <label className="inline-flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-neutral-900"
                      checked={agent.onlyAssigneeDecides}
                      disabled={pending}
                      onChange={(event) => toggle(agent, { onlyAssigneeDecides: event.target.checked })}
                      aria-label={t("onlyAssigneeOf", { agent: agent.name })}
                    />
                    {agent.onlyAssigneeDecides ? t("on") : t("off")}
                  </label>
                </TableCell>
                <TableCell>
                  <label className="inline-flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-neutral-900"
                      checked={agent.allowTrust}
                      disabled={pending}
                      onChange={(event) => toggle(agent, { allowTrust: event.target.checked })}
                      aria-label={t("allowTrustOf", { agent: agent.name })}
                    />
                    {agent.allowTrust ? t("on") : t("off")}
                  </label>
                </TableCell>
                <TableCell className="text-xs text-neutral-600">
                  {agent.updatedBy && agent.updatedAt
                    ? t.rich("changedBy", {
                        by: agent.updatedBy,
                        time: () => <time dateTime={agent.updatedAt!}>{timestamp(agent.updatedAt!)}</time>,
                      })
                    : t("never")}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
