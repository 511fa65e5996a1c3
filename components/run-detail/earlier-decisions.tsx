/**
 * "Earlier decisions", beside a waiting call: how the same customer's calls of this tool went in the
 * last 30 days, the latest of them, and what was decided earlier in the same thread
 * (lib/actions/read-earlier-decisions.ts), each linking to the history.
 */
"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { readEarlierDecisions } from "@/lib/actions/read-earlier-decisions";
import type { EarlierDecision, EarlierDecisions as Earlier } from "@/lib/runs/conversation-dto";
import { useTimestamp } from "@/components/time";

async function fetchEarlier(runId: string, toolCallId: string): Promise<Earlier | null> {
  const result = await readEarlierDecisions({ runId, toolCallId });
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}

export function EarlierDecisions({ runId, toolCallId }: { runId: string; toolCallId: string }) {
  const t = useTranslations("runDetail.earlier");
  const query = useQuery({
    queryKey: ["earlier-decisions", runId, toolCallId],
    queryFn: () => fetchEarlier(runId, toolCallId),
    staleTime: 30_000,
    retry: false,
  });
  const earlier = query.data;
  if (!earlier) return null;
  const { counts } = earlier;
  const history = earlier.resourceId ? `/history?resourceId=${encodeURIComponent(earlier.resourceId)}` : "/history";
  return (
    <section aria-label={t("title")} className="flex flex-col gap-2 text-sm">
      <h3 className="font-semibold text-neutral-900">{t("title")}</h3>
      {earlier.resourceId && earlier.toolName ? (
        <p className="text-neutral-700" data-testid="earlier-counts">
          {t.rich("counts", {
            tool: () => <span className="font-mono">{earlier.toolName}</span>,
            days: earlier.days,
            approved: counts.approved,
            declined: counts.declined,
            expired: counts.expired,
            resumed: counts.resumed,
            outside: counts.outside,
          })}{" "}
          <Link className="underline" href={history}>
            {t("historyOf", { resource: earlier.resourceId })}
          </Link>
        </p>
      ) : (
        <p className="text-neutral-500">{t("noCustomer")}</p>
      )}
      {earlier.recent.length > 0 ? <DecisionList label={t("latest")} decisions={earlier.recent} /> : null}
      {earlier.thread.length > 0 ? <DecisionList label={t("inThread")} decisions={earlier.thread} /> : null}
    </section>
  );
}

function DecisionList({ label, decisions }: { label: string; decisions: EarlierDecision[] }) {
  const t = useTranslations("runDetail.earlier");
  const timestamp = useTimestamp();
  return (
    <div>
      <p className="text-xs font-medium text-neutral-500">{label}</p>
      <ul className="flex flex-col gap-0.5">
        {decisions.map((decision) => (
          <li key={`${decision.runId}:${decision.toolCallId}`} className="text-neutral-700 [overflow-wrap:anywhere]">
            {t.rich("decided", {
              tool: () => <span className="font-mono text-xs">{decision.toolName ?? t("aTool")}</span>,
              action: decision.action,
              reviewer: decision.reviewer,
              time: () => <time dateTime={decision.decidedAt}>{timestamp(decision.decidedAt)}</time>,
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}
