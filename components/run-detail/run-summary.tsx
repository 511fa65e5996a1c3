/** The top of a run's page: where it sits, what waits, and the run's facts (thread and resource link to the filtered list). */
import Link from "next/link";
import type { RunDetailDto } from "@/lib/queue/dto";
import { formatTimestamp } from "@/components/time";
import { Card } from "@/components/ui/card";
import { ShapeBadge } from "@/components/runs/shape-badge";
import { RunHeadline } from "./run-headline";

export function RunSummary({ run, agentName }: { run: RunDetailDto; agentName?: string }) {
  const toolNames = [...new Set(run.toolCalls.map((call) => call.path?.at(-1) ?? call.toolName ?? "(unnamed tool)"))];
  return (
    <>
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
        <RunHeadline
          suspendedAt={run.suspendedAt}
          calls={run.toolCalls.map((call) => ({
            toolCallId: call.toolCallId,
            toolName: call.path?.at(-1) ?? call.toolName ?? "(unnamed tool)",
            inFlight: call.inFlight,
            markedExpired: call.markedExpired,
          }))}
        />
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
            <span className="font-mono text-[13px] text-neutral-500">{agentName ? `(${run.agentId})` : run.agentId}</span>{" "}
            <ShapeBadge shape={run.shape} delegated={run.toolCalls.some((call) => call.path)} />
          </Field>
          <Field label="Suspended at">
            <time dateTime={run.suspendedAt}>{formatTimestamp(run.suspendedAt)}</time>
          </Field>
          <Field label="Started at">
            <time dateTime={run.createdAt}>{formatTimestamp(run.createdAt)}</time>
          </Field>
        </dl>
      </Card>
    </>
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
