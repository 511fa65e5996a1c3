import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { listConsoleAgents } from "@/lib/queue/agents";
import { pageAccess } from "@/lib/auth/page-access";
import { can } from "@/lib/auth/roles";
import { getRunPage } from "@/lib/queue/views";
import { DECIDED, type PriorDecision } from "@/lib/decisions/types";
import { formatTimestamp } from "@/components/time";
import { LIMITS } from "@/lib/decisions/limits";
import { idTextProblem } from "@/lib/safe-text";
import { Conversation } from "@/components/run-detail/conversation";
import { EarlierInThread } from "@/components/run-detail/earlier-in-thread";
import { PendingCallCard } from "@/components/run-detail/pending-call-card";
import { QueuedCallCard } from "@/components/run-detail/queued-call-card";
import { RunSummary } from "@/components/run-detail/run-summary";
import { RunDecisionsProvider } from "@/components/run-detail/run-decisions";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

// A run waits until somebody decides it: always read it fresh.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ runId: string }> };

function readRunId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const runId = readRunId((await params).runId);
  return { title: `Run ${runId.slice(0, 8)} · Agent approvals` };
}

export default async function RunPage({ params }: Params) {
  const runId = readRunId((await params).runId);
  const { actor } = await pageAccess("read", `/runs/${encodeURIComponent(runId)}`);
  const canDecide = can(actor.role, "decide");
  // An id no run can have (too long, NUL, control characters) is not looked up.
  const found =
    runId.trim() && runId.length <= LIMITS.idLength && !idTextProblem(runId) ? await getRunPage(runId) : { unknown: true as const };
  if ("unknown" in found) notFound();
  if ("decided" in found) return <NotWaiting runId={runId} decided={found.decided} decidedOutsideAt={found.decidedOutsideAt} />;
  const run = found.waiting;

  const agentName = (await listConsoleAgents()).find((agent) => agent.id === run.agentId)?.name;

  return (
    <RunDecisionsProvider>
      <div className="flex flex-col gap-6">
        <RunSummary run={run} agentName={agentName} />
        <Card className="px-5 py-4">
          <Conversation
            runId={run.runId}
            pendingToolCallIds={run.toolCalls.flatMap((call) => (call.toolCallId ? [call.toolCallId] : []))}
          />
          <div className="mt-3 flex flex-col">
            <EarlierInThread runId={run.runId} />
          </div>
        </Card>
        {run.toolCalls.map((call, index) => (
          <PendingCallCard key={call.toolCallId ?? index} run={run} call={call} index={index} canDecide={canDecide} />
        ))}
        {run.queuedCalls.map((call, index) => (
          <QueuedCallCard key={call.toolCallId} run={run} call={call} index={index} />
        ))}
      </div>
    </RunDecisionsProvider>
  );
}

function NotWaiting({ runId, decided, decidedOutsideAt }: { runId: string; decided: PriorDecision; decidedOutsideAt?: string }) {
  return (
    <Card className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">This run is not waiting anymore</h1>
      <p className="text-sm text-neutral-600">
        No pending tool call belongs to run <span className="font-mono text-[13px] text-neutral-900 [overflow-wrap:anywhere]">{runId}</span>
        .
      </p>
      <p className="text-sm text-neutral-900">
        {decided.reviewer} {DECIDED[decided.action]} it at {formatTimestamp(decided.decidedAt)}
        {decided.state === "applied" ? "." : ` (that decision is ${decided.state}).`} The history has every step.
      </p>
      {decidedOutsideAt ? (
        <p className="text-sm text-neutral-900">
          After that, a call of this run was decided outside the console at {formatTimestamp(decidedOutsideAt)} (in Mastra Studio, by the
          agent&apos;s own code or through its server directly).
        </p>
      ) : null}
      <Link href="/" className={buttonClasses({ variant: "default", size: "sm", className: "mt-2" })}>
        Back to pending runs
      </Link>
    </Card>
  );
}
