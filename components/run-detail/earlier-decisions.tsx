/**
 * "Earlier decisions", beside a waiting call: how the same customer's calls of this tool went in the
 * last 30 days, the latest of them, and what was decided earlier in the same thread
 * (lib/actions/read-earlier-decisions.ts), each linking to the history.
 */
"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { readEarlierDecisions } from "@/lib/actions/read-earlier-decisions";
import type { EarlierDecision, EarlierDecisions as Earlier } from "@/lib/runs/conversation-dto";

const DONE: Record<string, string> = { approve: "approved", decline: "declined", resume: "resumed", expire: "expired" };

async function fetchEarlier(runId: string, toolCallId: string): Promise<Earlier | null> {
  const result = await readEarlierDecisions({ runId, toolCallId });
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}

export function EarlierDecisions({ runId, toolCallId }: { runId: string; toolCallId: string }) {
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
    <section aria-label="Earlier decisions" className="flex flex-col gap-2 text-sm">
      <h3 className="font-semibold text-neutral-900">Earlier decisions</h3>
      {earlier.resourceId && earlier.toolName ? (
        <p className="text-neutral-700" data-testid="earlier-counts">
          This customer&apos;s <span className="font-mono">{earlier.toolName}</span> calls in the last {earlier.days} days:{" "}
          {counts.approved} approved, {counts.declined} declined, {counts.expired} expired
          {counts.resumed ? `, ${counts.resumed} resumed` : ""}
          {counts.outside ? `, ${counts.outside} decided outside the console` : ""}.{" "}
          <Link className="underline" href={history}>
            History of {earlier.resourceId}
          </Link>
        </p>
      ) : (
        <p className="text-neutral-500">No customer is recorded for this run: nothing to compare it with.</p>
      )}
      {earlier.recent.length > 0 ? <DecisionList label="Latest" decisions={earlier.recent} /> : null}
      {earlier.thread.length > 0 ? <DecisionList label="Earlier in this thread" decisions={earlier.thread} /> : null}
    </section>
  );
}

function DecisionList({ label, decisions }: { label: string; decisions: EarlierDecision[] }) {
  return (
    <div>
      <p className="text-xs font-medium text-neutral-500">{label}</p>
      <ul className="flex flex-col gap-0.5">
        {decisions.map((decision) => (
          <li key={`${decision.runId}:${decision.toolCallId}`} className="text-neutral-700 [overflow-wrap:anywhere]">
            <span className="font-mono text-xs">{decision.toolName ?? "a tool"}</span> {DONE[decision.action] ?? decision.action} by{" "}
            {decision.reviewer}, <time dateTime={decision.decidedAt}>{new Date(decision.decidedAt).toLocaleString()}</time>
          </li>
        ))}
      </ul>
    </div>
  );
}
