/**
 * The top of a run's page: where it sits and what waits (RunTitle), and the run's facts (RunFacts:
 * thread and resource link to the filtered list). Two parts, so that on a phone the page can show
 * the decision between them.
 */
import { useTranslations } from "next-intl";
import Link from "next/link";
import type { RunDetailDto } from "@/lib/queue/dto";
import { useTimestamp } from "@/components/time";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { ShapeBadge } from "@/components/runs/shape-badge";
import { RunHeadline } from "./run-headline";

export function RunTitle({ run }: { run: RunDetailDto }) {
  const t = useTranslations("run");
  const unnamed = t("unnamedTool");
  const toolNames = [...new Set(run.toolCalls.map((call) => call.path?.at(-1) ?? call.toolName ?? unnamed))];
  return (
    <>
      <nav aria-label={t("breadcrumb")} className="text-sm text-neutral-500">
        {/* One line: a long run id is cut here (it is whole in the facts), so the call starts higher on a phone. */}
        <ol className="flex items-center gap-1.5">
          <li className="shrink-0">
            <Link href="/" className="rounded-sm hover:text-neutral-900 hover:underline underline-offset-4">
              {t("pendingRuns")}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="min-w-0 truncate font-mono text-neutral-700">
            {run.runId}
          </li>
        </ol>
      </nav>

      <div className="flex flex-col gap-1">
        <h1 className="font-mono text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          {toolNames.join(", ") || t("pendingRun")}
        </h1>
        <RunHeadline
          suspendedAt={run.suspendedAt}
          calls={run.toolCalls.map((call) => ({
            toolCallId: call.toolCallId,
            toolName: call.path?.at(-1) ?? call.toolName ?? unnamed,
            inFlight: call.inFlight,
            markedExpired: call.markedExpired,
          }))}
        />
      </div>
    </>
  );
}

export function RunFacts({ run, agentName, className }: { run: RunDetailDto; agentName?: string; className?: string }) {
  const t = useTranslations("run");
  const timestamp = useTimestamp();
  return (
    <Card className={cn("px-5 py-4", className)}>
      <h2 className="sr-only">{t("facts")}</h2>
      <dl className="grid grid-cols-1 gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Field label={t("runId")}>
          <span className="font-mono text-[13px]">{run.runId}</span>
        </Field>
        <Field label={t("thread")}>
          <QueueFilterLink param="threadId" value={run.threadId} none={t("none")} />
        </Field>
        <Field label={t("resource")}>
          <QueueFilterLink param="resourceId" value={run.resourceId} none={t("none")} />
        </Field>
        <Field label={t("agent")}>
          {agentName ? <>{agentName} </> : null}
          <span className="font-mono text-[13px] text-neutral-500">{agentName ? `(${run.agentId})` : run.agentId}</span>{" "}
          <ShapeBadge shape={run.shape} delegated={run.toolCalls.some((call) => call.path)} />
        </Field>
        <Field label={t("suspendedAt")}>
          <time dateTime={run.suspendedAt}>{timestamp(run.suspendedAt)}</time>
        </Field>
        <Field label={t("startedAt")}>
          <time dateTime={run.createdAt}>{timestamp(run.createdAt)}</time>
        </Field>
      </dl>
    </Card>
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

/** A run's thread or resource as a link to the queue filtered by it, or "none" in words. */
function QueueFilterLink({ param, value, none }: { param: "threadId" | "resourceId"; value?: string | null; none: string }) {
  if (!value) return <span className="text-neutral-500">{none}</span>;
  return (
    <Link
      href={`/?${param}=${encodeURIComponent(value)}`}
      className="font-mono text-[13px] underline decoration-neutral-300 underline-offset-4 hover:decoration-neutral-900"
    >
      {value}
    </Link>
  );
}
