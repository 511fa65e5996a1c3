/**
 * A call the model made in the same step as a pending one, which the agent has not reached yet
 * (Mastra 1.71 carries out a step's calls one at a time, in the model's order). Shown with its
 * arguments and the decision buttons disabled, saying why, before anyone tries: the server would
 * refuse it (`call_not_reached`) and Mastra itself cannot continue the run in that order. Once the
 * live page learns the run went on without them, it says there is nothing left to decide.
 */
import { useTranslations } from "next-intl";
import type { RunDetailDto } from "@/lib/queue/dto";
import { JsonViewer } from "@/components/json-viewer";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { QueuedCallReason } from "./queued-call-reason";

/** The calls of the run's waiting step: the pending ones and the queued ones behind them. */
const stepCallsOf = (run: RunDetailDto) => [
  ...run.toolCalls.flatMap((pending) => (pending.toolCallId ? [pending.toolCallId] : [])),
  ...run.queuedCalls.map((queued) => queued.toolCallId),
];

/** Why a queued call cannot be decided yet, in the reader's language. */
export function useQueuedCallReason(): (call: RunDetailDto["queuedCalls"][number], run: RunDetailDto) => string {
  const t = useTranslations("run");
  return (call, run) => {
    const first = run.toolCalls.find((pending) => pending.toolCallId === call.behind);
    return t("queuedReason", { tool: first?.toolName ?? t("anotherCall"), id: call.behind });
  };
}

export function QueuedCallCard({ run, call, index }: { run: RunDetailDto; call: RunDetailDto["queuedCalls"][number]; index: number }) {
  const t = useTranslations();
  const queuedCallReason = useQueuedCallReason();
  const toolName = call.toolName ?? t("run.unnamedTool");
  const reasonId = `queued-reason-${index}`;
  return (
    <Card className="overflow-hidden border-dashed" data-testid="queued-call">
      <section aria-labelledby={`queued-${index}`}>
        <div className="flex flex-wrap items-center gap-3 border-b border-neutral-200 px-5 py-3">
          <h2 id={`queued-${index}`} className="font-mono text-base font-semibold">
            {toolName}
          </h2>
          <span className="rounded-full bg-neutral-100 px-2 py-0.5 text-xs font-medium text-neutral-700">{t("run.queued")}</span>
          <span className="font-mono text-xs text-neutral-500">{call.toolCallId}</span>
        </div>
        <div className="grid gap-6 px-5 py-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="flex min-w-0 flex-col gap-2">
            <h3 className="text-sm font-semibold text-neutral-900">{t("run.arguments")}</h3>
            <JsonViewer label={t("run.argumentsOf", { tool: toolName })} value={call.args ?? null} />
          </div>
          <div className="flex min-w-0 flex-col gap-3">
            <QueuedCallReason id={reasonId} stepCalls={stepCallsOf(run)} reason={queuedCallReason(call, run)} />
            <div className="flex flex-wrap gap-2">
              <Button size="sm" disabled aria-describedby={reasonId}>
                {t("decision.approve")}
              </Button>
              <Button size="sm" variant="outline" disabled aria-describedby={reasonId}>
                {t("decision.decline")}
              </Button>
            </div>
          </div>
        </div>
      </section>
    </Card>
  );
}
