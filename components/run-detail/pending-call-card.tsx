/** One pending call on a run's page: its arguments or suspend payload, what it expects back, and the decision. */
import { useTranslations } from "next-intl";
import type { RunDetailDto } from "@/lib/queue/dto";
import { AssigneeControl } from "@/components/assignments/assignee-control";
import { JsonViewer } from "@/components/json-viewer";
import { DelegationPath } from "@/components/runs/delegation-path";
import { KindBadge } from "@/components/runs/kind-badge";
import { ApprovalsBadge, BeingDecidedBadge, ExpiredBadge, MayHaveRunBadge } from "@/components/runs/decision-badges";
import { Card } from "@/components/ui/card";
import { Spaced } from "@/components/ui/spaced";
import { AboutTool } from "./about-tool";
import { CallPresence } from "./call-presence";
import { EarlierDecisions } from "./earlier-decisions";
import { ResumeSchemaView } from "./resume-schema-view";
import { ToolCallDecision } from "./tool-call-decision";

export function PendingCallCard({
  run,
  call,
  index,
  canDecide,
}: {
  run: RunDetailDto;
  call: RunDetailDto["toolCalls"][number];
  index: number;
  canDecide: boolean;
}) {
  // A delegated suspend() is named by Mastra after the supervisor's `agent-<name>` tool: show the tool that waits.
  const t = useTranslations("run");
  const toolName = call.path?.at(-1) ?? call.toolName ?? t("unnamedTool");
  return (
    <Card key={call.toolCallId ?? index} className="overflow-hidden">
      <section aria-labelledby={`call-${index}`}>
        <div className="flex flex-wrap items-center gap-3 border-b border-neutral-200 px-5 py-3 max-sm:px-3">
          <Spaced>
            <h2 id={`call-${index}`} className="font-mono text-base font-semibold">
              {toolName}
            </h2>
            <KindBadge requiresApproval={call.requiresApproval} />
            {call.interrupted ? <MayHaveRunBadge interrupted={call.interrupted} /> : null}
            {call.inFlight ? <BeingDecidedBadge inFlight={call.inFlight} /> : null}
            {call.approvals ? <ApprovalsBadge approvals={call.approvals} /> : null}
            {call.markedExpired ? <ExpiredBadge expiry={call.markedExpired} /> : null}
            {call.toolCallId ? <CallPresence runId={run.runId} toolCallId={call.toolCallId} /> : null}
            {call.toolCallId ? (
              <span className="font-mono text-xs text-neutral-500 [overflow-wrap:anywhere]">{call.toolCallId}</span>
            ) : null}
            {call.toolCallId ? (
              <AssigneeControl
                className="ml-auto"
                shownBy="page"
                target={{ kind: "call", runId: run.runId, toolCallId: call.toolCallId }}
                assignee={call.assignee}
                targetLabel={toolName}
              />
            ) : null}
            {call.path ? (
              <span className="flex basis-full flex-wrap items-center gap-1.5 text-xs text-neutral-600">
                {t("insideDelegation", { agent: call.path[0] ?? "" })}
                <DelegationPath path={call.path} />
              </span>
            ) : null}
          </Spaced>
        </div>
        {/* Below 1024 px one column: the arguments, then the decision (reachable by thumb), then the rest.
            The arguments' heading is the viewer's own label there, and a long value scrolls inside it:
            Approve stays on a phone's first screen (e2e/35). */}
        <div className="grid gap-6 px-5 py-5 max-lg:grid-cols-[minmax(0,1fr)] max-sm:gap-4 max-sm:px-3 max-sm:py-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="flex min-w-0 flex-col gap-5 max-lg:contents">
            {call.requiresApproval ? (
              <div className="flex flex-col gap-2 max-lg:order-first">
                <h3 className="text-sm font-semibold text-neutral-900 max-lg:sr-only">{t("arguments")}</h3>
                <JsonViewer
                  label={t("argumentsOf", { tool: toolName })}
                  value={call.args ?? null}
                  className="max-lg:[&>div[role=group]]:max-h-60"
                />
              </div>
            ) : (
              <div className="flex flex-col gap-2 max-lg:order-first">
                <h3 className="text-sm font-semibold text-neutral-900 max-lg:sr-only">{t("toolAsks")}</h3>
                <JsonViewer
                  label={t("payloadOf", { tool: toolName })}
                  value={call.suspendPayload ?? null}
                  className="max-lg:[&>div[role=group]]:max-h-60"
                />
              </div>
            )}
            {call.toolCallId ? <AboutTool runId={run.runId} toolCallId={call.toolCallId} /> : null}
          </div>
          <div className="flex min-w-0 flex-col gap-5 max-lg:contents">
            {call.requiresApproval ? null : (
              <div className="flex flex-col gap-2 max-lg:order-first">
                <h3 className="text-sm font-semibold text-neutral-900">{t("toolExpects")}</h3>
                <ResumeSchemaView schema={call.resumeSchema} />
              </div>
            )}
            <div className="min-w-0 max-lg:order-first">
              <h3 className="mb-3 text-sm font-semibold text-neutral-900">{t("yourDecision")}</h3>
              <ToolCallDecision
                runId={run.runId}
                toolCallId={call.toolCallId}
                toolName={toolName}
                requiresApproval={call.requiresApproval}
                resumeSchema={call.resumeSchema}
                suspendPayload={call.suspendPayload}
                interrupted={call.interrupted}
                inFlight={call.inFlight}
                assignee={call.assignee}
                markedExpired={call.markedExpired}
                canDecide={canDecide}
                args={call.requiresApproval ? (call.args ?? {}) : undefined}
                trustArgs={call.requiresApproval ? (call.args ?? {}) : undefined}
              />
            </div>
            {call.toolCallId ? <EarlierDecisions runId={run.runId} toolCallId={call.toolCallId} /> : null}
          </div>
        </div>
      </section>
    </Card>
  );
}
