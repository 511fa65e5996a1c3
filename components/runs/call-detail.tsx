"use client";

/**
 * An opened row of the review queue: the call's arguments or suspend payload (read on demand, once
 * per run, through readRun) and the run page's own decision UI in its compact form.
 */
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { readRun } from "@/lib/actions/read-run";
import type { ClientActionError } from "@/lib/actions/result";
import type { DecisionOutcome } from "@/lib/decisions/types";
import type { RunDetailDto } from "@/lib/queue/dto";
import { AssigneeControl } from "@/components/assignments/assignee-control";
import { JsonViewer } from "@/components/json-viewer";
import { AboutTool } from "@/components/run-detail/about-tool";
import { Conversation } from "@/components/run-detail/conversation";
import { EarlierInThread } from "@/components/run-detail/earlier-in-thread";
import { EarlierDecisions } from "@/components/run-detail/earlier-decisions";
import { ResumeSchemaView } from "@/components/run-detail/resume-schema-view";
import { ToolCallDecision } from "@/components/run-detail/tool-call-decision";
import type { DecisionControls } from "@/components/run-detail/use-decide";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useErrorText } from "@/components/error-text";
import { OpenByBadge, useOpenCall } from "./presence";
import { runDetailQueryKey } from "./runs-query";
import type { PendingCallRow } from "./runs-table-model";

/** What a shortcut asked of an opened row, carried out once its form is there. */
export type RowIntent = "approve" | "focusApprove" | "reason" | "resume";

export type Settled = { outcome: DecisionOutcome } | { elsewhere: ClientActionError };

/** Why a call's detail could not be read: the server's error, or "network" when it could not be reached. */
class RunDetailError extends Error {
  constructor(readonly error: ClientActionError) {
    super(error.message);
  }
}

async function fetchRunDetail(runId: string): Promise<RunDetailDto | null> {
  let result: Awaited<ReturnType<typeof readRun>>;
  try {
    result = await readRun({ runId });
  } catch {
    throw new RunDetailError({ code: "network", message: "" });
  }
  if (!result.ok) throw new RunDetailError(result.error);
  return result.data;
}

interface CallDetailProps {
  row: PendingCallRow;
  canDecide: boolean;
  intent: RowIntent | null;
  onIntentDone: () => void;
  onSettled: (settled: Settled) => void;
  /** A decision is being sent from this row: returns its release, once the answer is in. */
  onSent: () => () => void;
}

export function CallDetail({ row, canDecide, intent, onIntentDone, onSettled, onSent }: CallDetailProps) {
  const query = useQuery({
    queryKey: runDetailQueryKey(row.runId),
    queryFn: () => fetchRunDetail(row.runId),
    staleTime: 60_000,
    retry: false,
  });
  const t = useTranslations("queue");
  const run = useTranslations("run");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const controls = useRef<DecisionControls>(null);
  const decision = useRef<HTMLDivElement>(null);
  // Once shown, the call stays shown: a later read of its run (the window back in focus) can come after
  // its decision, and the form's own answer is what tells what became of it; the list takes the row away.
  const found = query.data?.toolCalls.find((candidate) => candidate.toolCallId === row.toolCallId);
  const [call, keepCall] = useState(found);
  if (found && found !== call) keepCall(found);
  const shown = Boolean(call);
  // While the row is open, the others on this call see this reader beside "being decided by".
  useOpenCall(row.runId, row.toolCallId);

  // Once the call is there, its decision is brought on screen (on a phone it sits under the
  // arguments, below the fold of a row opened low on the page); "nearest" leaves it be where it shows.
  useEffect(() => {
    if (shown) decision.current?.scrollIntoView({ block: "nearest" });
  }, [shown]);

  // A shortcut pressed before the form was there (the row was closed, or its detail loading).
  useEffect(() => {
    if (!intent) return;
    // Nothing to do it on (being decided, read-only role, already settled): drop it.
    if (!controls.current) {
      if (!query.isPending) onIntentDone();
      return;
    }
    const form = controls.current;
    if (intent === "approve") form.approve();
    else if (intent === "focusApprove") form.focusApprove();
    else if (intent === "reason") form.focusReason();
    else form.focusResume();
    onIntentDone();
  });

  if (query.isPending) {
    return (
      <p className="py-2 text-sm text-neutral-500" aria-busy="true">
        {t("row.loading")}
      </p>
    );
  }
  if (query.isError && !call) {
    return (
      <Alert variant="destructive" role="alert" title={t("detail.loadFailed")}>
        <span className="[overflow-wrap:anywhere]">
          {query.error instanceof RunDetailError && query.error.error.code !== "network"
            ? errorText(query.error.error)
            : t("detail.unreachable")}
        </span>{" "}
        <Button variant="outline" size="xs" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {common("retry")}
        </Button>
      </Alert>
    );
  }
  if (!call) {
    return <p className="py-2 text-sm text-neutral-600">{t("detail.gone")}</p>;
  }

  const toolName = row.toolName;
  const queued = query.data?.queuedCalls.filter((next) => next.behind === call.toolCallId) ?? [];
  return (
    // Below 1024 px one column: the arguments, then the decision (reachable by thumb), then the rest.
    <div className="grid gap-4 py-1 max-lg:grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex min-w-0 flex-col gap-3 max-lg:contents">
        {queued.length > 0 ? (
          // Mastra carries out a step's calls in order: the others come up one by one after this one.
          <p className="text-sm text-neutral-700 max-lg:order-first" data-testid="queued-behind">
            {t("detail.queued", {
              count: queued.length,
              calls: queued
                .map((next) => t("detail.queuedCall", { tool: next.toolName ?? t("detail.aTool"), id: next.toolCallId }))
                .join(", "),
            })}
          </p>
        ) : null}
        <JsonViewer
          label={run(call.requiresApproval ? "argumentsOf" : "payloadOf", { tool: toolName })}
          value={(call.requiresApproval ? call.args : call.suspendPayload) ?? null}
          className="max-lg:order-first [&>div[role=group]]:max-h-80"
        />
        {call.requiresApproval ? null : (
          <details className="text-sm max-lg:order-first">
            <summary className="cursor-pointer font-medium text-neutral-700">{run("toolExpects")}</summary>
            <div className="mt-2">
              <ResumeSchemaView schema={call.resumeSchema} />
            </div>
          </details>
        )}
        {call.toolCallId ? <AboutTool runId={row.runId} toolCallId={call.toolCallId} /> : null}
        <Conversation runId={row.runId} pendingToolCallIds={call.toolCallId ? [call.toolCallId] : []} />
        <EarlierInThread runId={row.runId} />
      </div>
      <div className="flex min-w-0 flex-col gap-3 max-lg:contents">
        {call.toolCallId ? (
          <AssigneeControl
            className="max-lg:order-first"
            target={{ kind: "call", runId: row.runId, toolCallId: call.toolCallId }}
            // The listing is re-read every 3 s: fresher than this run's cached detail.
            assignee={row.assignee}
            targetLabel={t("row.label", { tool: toolName, run: row.runId.slice(0, 8) })}
          />
        ) : null}
        <div ref={decision} className="flex min-w-0 flex-col gap-2 max-lg:order-first">
          <OpenByBadge runId={row.runId} toolCallId={row.toolCallId} className="self-start" />
          <ToolCallDecision
            variant="row"
            controls={controls}
            onSettled={onSettled}
            onSent={onSent}
            runId={row.runId}
            toolCallId={call.toolCallId}
            toolName={toolName}
            requiresApproval={call.requiresApproval}
            resumeSchema={call.resumeSchema}
            suspendPayload={call.suspendPayload}
            // The listing is re-read every 3 s: fresher than this run's cached detail.
            interrupted={row.interrupted}
            inFlight={row.inFlight}
            assignee={row.assignee}
            markedExpired={row.markedExpired}
            canDecide={canDecide}
            trustArgs={call.requiresApproval ? (call.args ?? {}) : undefined}
          />
        </div>
        {call.toolCallId ? <EarlierDecisions runId={row.runId} toolCallId={call.toolCallId} /> : null}
      </div>
    </div>
  );
}
