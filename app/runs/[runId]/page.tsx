import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { listConsoleAgents } from "@/lib/queue/agents";
import { pageAccess } from "@/lib/auth/page-access";
import { recordRunViews } from "@/lib/insights/record";
import { can } from "@/lib/auth/roles";
import { getRunPage } from "@/lib/queue/views";
import { getDb } from "@/lib/db/client";
import { feedHead } from "@/lib/live/feed";
import type { PriorDecision } from "@/lib/decisions/types";
import { useTimestamp } from "@/components/time";
import { useTranslations } from "next-intl";
import { LIMITS } from "@/lib/decisions/limits";
import { idTextProblem } from "@/lib/safe-text";
import { Conversation } from "@/components/run-detail/conversation";
import { EarlierInThread } from "@/components/run-detail/earlier-in-thread";
import { PendingCallCard } from "@/components/run-detail/pending-call-card";
import { QueuedCallCard } from "@/components/run-detail/queued-call-card";
import { RunFacts, RunTitle } from "@/components/run-detail/run-summary";
import { RunDecisionsProvider } from "@/components/run-detail/run-decisions";
import { RunLive } from "@/components/run-detail/run-live";
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
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("run.pageTitle", { id: runId.slice(0, 8) }) }) };
}

export default async function RunPage({ params }: Params) {
  const runId = readRunId((await params).runId);
  const { actor } = await pageAccess("read", `/runs/${encodeURIComponent(runId)}`);
  const canDecide = can(actor.role, "decide");
  // An id no run can have (too long, NUL, control characters) is not looked up.
  // Read before the run: the page's live stream resumes from here, so a decision made while it loads is not missed.
  const since = await feedHead(await getDb()).catch(() => null);
  const found =
    runId.trim() && runId.length <= LIMITS.idLength && !idTextProblem(runId) ? await getRunPage(runId) : { unknown: true as const };
  if ("unknown" in found) notFound();
  if ("decided" in found) return <NotWaiting runId={runId} decided={found.decided} decidedOutsideAt={found.decidedOutsideAt} />;
  const run = found.waiting;
  const shown = run.toolCalls.flatMap((call) => (call.toolCallId ? [call.toolCallId] : []));
  // The page shows every waiting call with its context: opened, for the insights (lib/insights).
  await recordRunViews(run.runId, shown, actor.email, true);

  const agentName = (await listConsoleAgents()).find((agent) => agent.id === run.agentId)?.name;

  return (
    <RunDecisionsProvider>
      <RunLive runId={run.runId} since={since} shown={shown} />
      <div className="flex flex-col gap-6 max-sm:gap-4">
        <RunTitle run={run} />
        {/* Below 1024 px the page a notification opens on a phone starts with the decision: the waiting
            calls (their arguments, then Approve / Decline) come first, the run's facts and its conversation after. */}
        <RunFacts run={run} agentName={agentName} className="max-lg:order-1" />
        <Card className="px-5 py-4 max-lg:order-1">
          <Conversation runId={run.runId} pendingToolCallIds={shown} />
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
  const t = useTranslations();
  const timestamp = useTimestamp();
  return (
    <Card className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">{t("run.notWaitingTitle")}</h1>
      <p className="text-sm text-neutral-600">
        {t.rich("run.notWaitingBody", {
          id: () => <span className="font-mono text-[13px] text-neutral-900 [overflow-wrap:anywhere]">{runId}</span>,
        })}
      </p>
      <p className="text-sm text-neutral-900">
        {t("run.decidedSentence", {
          reviewer: decided.reviewer,
          action: decided.action,
          time: timestamp(decided.decidedAt),
          state:
            decided.state === "applied"
              ? "applied"
              : t.has(`history.outcomes.${decided.state}` as never)
                ? t(`history.outcomes.${decided.state}` as never)
                : decided.state,
        })}
      </p>
      {decidedOutsideAt ? (
        <p className="text-sm text-neutral-900">{t("run.decidedOutsideAfter", { time: timestamp(decidedOutsideAt) })}</p>
      ) : null}
      <Link href="/" className={buttonClasses({ variant: "default", size: "sm", className: "mt-2" })}>
        {t("common.backToPending")}
      </Link>
    </Card>
  );
}
