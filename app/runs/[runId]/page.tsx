import type { Metadata } from "next";
import Link from "next/link";
import { listConsoleAgents } from "@/lib/queue/agents";
import { pageAccess } from "@/lib/auth/page-access";
import { can } from "@/lib/auth/roles";
import { getRunDetail } from "@/lib/queue/views";
import { LIMITS } from "@/lib/decisions/limits";
import { idTextProblem } from "@/lib/safe-text";
import { JsonViewer } from "@/components/json-viewer";
import { WaitingTime } from "@/components/relative-time";
import { KindBadge } from "@/components/runs/kind-badge";
import { MayHaveRunBadge } from "@/components/runs/may-have-run-badge";
import { ResumeSchemaView } from "@/components/run-detail/resume-schema-view";
import { ToolCallDecision } from "@/components/run-detail/tool-call-decision";
import { formatTimestamp } from "@/components/time";
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
  // An id no run can have (too long, NUL, control characters) is not looked up: it is not waiting.
  const run = runId.trim() && runId.length <= LIMITS.idLength && !idTextProblem(runId) ? await getRunDetail(runId) : null;
  if (!run) return <NotWaiting runId={runId} />;

  const agentName = (await listConsoleAgents()).find((agent) => agent.id === run.agentId)?.name;
  const toolNames = [...new Set(run.toolCalls.map((call) => call.toolName ?? "(unnamed tool)"))];

  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="Breadcrumb" className="text-sm text-neutral-500">
        <ol className="flex items-center gap-1.5">
          <li>
            <Link href="/" className="rounded-sm hover:text-neutral-900 hover:underline underline-offset-4">
              Pending runs
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="font-mono text-neutral-700">
            {run.runId}
          </li>
        </ol>
      </nav>

      <div className="flex flex-col gap-1">
        <h1 className="font-mono text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          {toolNames.join(", ") || "Pending run"}
        </h1>
        <p className="text-sm text-neutral-500">
          {run.toolCalls.length === 1 ? "One tool call waits" : `${run.toolCalls.length} tool calls wait`} for a reviewer, for{" "}
          <WaitingTime iso={run.suspendedAt} />.
        </p>
      </div>

      <Card className="px-5 py-4">
        <h2 className="sr-only">Run</h2>
        <dl className="grid grid-cols-1 gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Field label="Run ID">
            <span className="font-mono text-[13px]">{run.runId}</span>
          </Field>
          <Field label="Thread">
            {run.threadId ? (
              <Link
                href={`/?threadId=${encodeURIComponent(run.threadId)}`}
                className="font-mono text-[13px] underline decoration-neutral-300 underline-offset-4 hover:decoration-neutral-900"
              >
                {run.threadId}
              </Link>
            ) : (
              <span className="text-neutral-400">none</span>
            )}
          </Field>
          <Field label="Resource">
            {run.resourceId ? (
              <Link
                href={`/?resourceId=${encodeURIComponent(run.resourceId)}`}
                className="font-mono text-[13px] underline decoration-neutral-300 underline-offset-4 hover:decoration-neutral-900"
              >
                {run.resourceId}
              </Link>
            ) : (
              <span className="text-neutral-400">none</span>
            )}
          </Field>
          <Field label="Agent">
            {agentName ? <>{agentName} </> : null}
            <span className="font-mono text-[13px] text-neutral-500">{agentName ? `(${run.agentId})` : run.agentId}</span>
          </Field>
          <Field label="Suspended at">
            <time dateTime={run.suspendedAt}>{formatTimestamp(run.suspendedAt)}</time>
          </Field>
          <Field label="Started at">
            <time dateTime={run.createdAt}>{formatTimestamp(run.createdAt)}</time>
          </Field>
        </dl>
      </Card>

      {run.toolCalls.map((call, index) => {
        const toolName = call.toolName ?? "(unnamed tool)";
        return (
          <Card key={call.toolCallId ?? index} className="overflow-hidden">
            <section aria-labelledby={`call-${index}`}>
              <div className="flex flex-wrap items-center gap-3 border-b border-neutral-200 px-5 py-3">
                <h2 id={`call-${index}`} className="font-mono text-base font-semibold">
                  {toolName}
                </h2>
                <KindBadge requiresApproval={call.requiresApproval} />
                {call.interrupted ? <MayHaveRunBadge interrupted={call.interrupted} /> : null}
                {call.toolCallId ? <span className="font-mono text-xs text-neutral-500">{call.toolCallId}</span> : null}
              </div>
              <div className="grid gap-6 px-5 py-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
                <div className="flex min-w-0 flex-col gap-5">
                  {call.requiresApproval ? (
                    <div className="flex flex-col gap-2">
                      <h3 className="text-sm font-semibold text-neutral-900">Arguments</h3>
                      <JsonViewer label={`Arguments of ${toolName}`} value={call.args ?? null} />
                    </div>
                  ) : (
                    <div className="flex flex-col gap-2">
                      <h3 className="text-sm font-semibold text-neutral-900">What the tool asks</h3>
                      <JsonViewer label={`Suspend payload of ${toolName}`} value={call.suspendPayload ?? null} />
                    </div>
                  )}
                </div>
                <div className="flex min-w-0 flex-col gap-5">
                  {call.requiresApproval ? null : (
                    <div className="flex flex-col gap-2">
                      <h3 className="text-sm font-semibold text-neutral-900">What the tool expects back</h3>
                      <ResumeSchemaView schema={call.resumeSchema} />
                    </div>
                  )}
                  <div>
                    <h3 className="mb-3 text-sm font-semibold text-neutral-900">Your decision</h3>
                    <ToolCallDecision
                      runId={run.runId}
                      toolCallId={call.toolCallId}
                      toolName={toolName}
                      requiresApproval={call.requiresApproval}
                      resumeSchema={call.resumeSchema}
                      interrupted={call.interrupted}
                      canDecide={canDecide}
                    />
                  </div>
                </div>
              </div>
            </section>
          </Card>
        );
      })}
    </div>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium text-neutral-500">{label}</dt>
      <dd className="text-neutral-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

function NotWaiting({ runId }: { runId: string }) {
  return (
    <Card className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">This run is not waiting anymore</h1>
      <p className="text-sm text-neutral-600">
        No pending tool call belongs to run <span className="font-mono text-[13px] text-neutral-900 [overflow-wrap:anywhere]">{runId}</span>
        . It was probably decided already, by another reviewer or another process, or the link is wrong.
      </p>
      <Link href="/" className={buttonClasses({ variant: "default", size: "sm", className: "mt-2" })}>
        Back to pending runs
      </Link>
    </Card>
  );
}
