/**
 * "About this tool", under a call's arguments: what the tool says it does and what each argument
 * means (lib/actions/read-tool-info.ts), read once per call when it opens. As text, like everything
 * an agent's author or a server wrote.
 */
"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { readToolInfo } from "@/lib/actions/read-tool-info";
import type { ToolInfo } from "@/lib/runs/conversation-dto";

async function fetchToolInfo(runId: string, toolCallId: string): Promise<ToolInfo | null> {
  const result = await readToolInfo({ runId, toolCallId });
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}

export function AboutTool({ runId, toolCallId }: { runId: string; toolCallId: string }) {
  const t = useTranslations("runDetail.aboutTool");
  const query = useQuery({
    queryKey: ["tool-info", runId, toolCallId],
    queryFn: () => fetchToolInfo(runId, toolCallId),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const info = query.data;
  // Nothing to say (the tool is not found, declares nothing, or the server is down): no section.
  if (!info || (!info.description && info.fields.length === 0)) return null;
  return (
    <section aria-label={t("title")} className="flex flex-col gap-2 text-sm">
      <h3 className="font-semibold text-neutral-900">{t("title")}</h3>
      {info.description ? <p className="whitespace-pre-wrap text-neutral-700 [overflow-wrap:anywhere]">{info.description}</p> : null}
      {info.fields.length > 0 ? (
        <table className="w-full table-fixed border-collapse text-left">
          <thead className="text-xs text-neutral-500">
            <tr>
              <th className="w-1/3 py-1 pr-2 font-medium">{t("argument")}</th>
              <th className="w-1/5 py-1 pr-2 font-medium">{t("type")}</th>
              <th className="py-1 font-medium">{t("meaning")}</th>
            </tr>
          </thead>
          <tbody>
            {info.fields.map((field) => (
              <tr key={field.path} className="border-t border-neutral-100 align-top">
                <td className="py-1 pr-2 font-mono text-xs [overflow-wrap:anywhere]">
                  {field.path}
                  {field.required ? null : <span className="ml-1 font-sans text-neutral-500">{t("optional")}</span>}
                </td>
                <td className="py-1 pr-2 font-mono text-xs text-neutral-600 [overflow-wrap:anywhere]">{field.type}</td>
                <td className="py-1 text-neutral-700 [overflow-wrap:anywhere]">
                  {field.description ?? <span className="text-neutral-400">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="text-xs text-neutral-500">{info.source === "server" ? t("fromServer") : t("fromCode")}</p>
    </section>
  );
}
