"use client";

import Link from "next/link";
import { useEffect, useId } from "react";
import { formatTimestamp } from "@/components/time";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { ActionResult, ClientActionError } from "@/lib/actions/result";
import { GONE_CODES } from "@/lib/errors";
import type { DecisionOutcome, InterruptedDecision } from "@/lib/decisions/types";
import { interruptionSentence } from "@/components/runs/may-have-run-badge";
import type { RunsPageDto } from "@/lib/queue/dto";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";

export type DecisionAction = DecisionOutcome["action"];

/** Somebody (or something) decided this call before us. */
export function isAlreadyDecided(error: ClientActionError): boolean {
  return GONE_CODES.has(error.code);
}

/** After a decision the run leaves the list at once (and the list re-reads the server). */
export function useForgetDecidedRun() {
  const queryClient = useQueryClient();
  return (outcome: DecisionOutcome) => forgetDecidedRun(queryClient, outcome);
}

function forgetDecidedRun(queryClient: QueryClient, outcome: DecisionOutcome) {
  if (outcome.runState === "completed") {
    queryClient.setQueriesData<RunsPageDto>({ queryKey: ["runs"] }, (page) => {
      if (!page || !page.runs.some((run) => run.runId === outcome.runId)) return page;
      const total = Math.max(0, page.total - 1);
      return {
        ...page,
        runs: page.runs.filter((run) => run.runId !== outcome.runId),
        total,
        pageCount: Math.max(1, Math.ceil(total / page.perPage)),
      };
    });
  }
  void queryClient.invalidateQueries({ queryKey: ["runs"] });
}

/** Runs a decision action; transport failures become an ActionError like any other. */
export async function callDecision(
  run: () => Promise<ActionResult<DecisionOutcome>>,
): Promise<{ ok: true; data: DecisionOutcome } | { ok: false; error: ClientActionError }> {
  try {
    return await run();
  } catch {
    return {
      ok: false,
      error: { code: "network", message: "The server could not be reached. Check the connection and try again." },
    };
  }
}

const DONE: Record<DecisionAction, string> = { approve: "Approved.", decline: "Declined.", resume: "Resumed." };

/** The announcement of a decision that went through; rendered inside the call's role="status" region. */
export function DecisionStatusMessage({ outcome }: { outcome: DecisionOutcome }) {
  return (
    <Alert variant="success" title={DONE[outcome.action]}>
      {outcome.runState === "completed"
        ? "The agent carried on and finished the run; it has left the pending list."
        : "The agent carried on and stopped again: it waits for another decision on this run."}
    </Alert>
  );
}

/** What the reviewer sees once the decision went through: the agent's answer and where to go next. */
export function DecisionResult({ outcome }: { outcome: DecisionOutcome }) {
  const headingId = useId();
  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby={headingId} className="flex flex-col gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-neutral-900">
          Agent&apos;s answer
        </h3>
        <p className="whitespace-pre-wrap rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2.5 text-sm leading-relaxed text-neutral-800 [overflow-wrap:anywhere]">
          {outcome.answer.trim() || <span className="italic text-neutral-500">The agent returned no text.</span>}
        </p>
      </section>
      <div className="flex flex-wrap gap-2">
        <Link href="/" className={buttonClasses({ variant: "default", size: "sm" })}>
          Back to pending runs
        </Link>
        {outcome.runState === "waiting-again" ? (
          // A full load: the server page reads the run's new pending call.
          <a href={`/runs/${encodeURIComponent(outcome.runId)}`} className={buttonClasses({ variant: "outline", size: "sm" })}>
            Review the next pending call
          </a>
        ) : null}
      </div>
    </div>
  );
}

/** A refused or failed decision. */
export function DecisionErrorAlert({ error }: { error: ClientActionError }) {
  const prior = error.priorDecision;
  const queryClient = useQueryClient();
  const gone = isAlreadyDecided(error);
  useEffect(() => {
    // The list must not keep offering a call that is gone.
    if (gone) void queryClient.invalidateQueries({ queryKey: ["runs"] });
  }, [gone, queryClient]);
  if (gone) {
    return (
      <Alert variant="warning" role="alert" title="This call was already decided">
        <p>
          {prior?.reviewer
            ? `${prior.reviewer} ${prior.action === "approve" ? "approved" : prior.action === "decline" ? "declined" : "resumed"} it${prior.decidedAt ? ` at ${formatTimestamp(prior.decidedAt)}` : ""}. `
            : "Another reviewer or process decided it first, or the run finished. "}
          Yours was recorded in the history and not carried out.
        </p>
        {prior ? null : <p className="mt-1 text-xs opacity-80">{error.message}</p>}
        <p className="mt-2">
          <Link href="/" className="font-medium underline underline-offset-4">
            Back to pending runs
          </Link>
        </p>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive" role="alert" title="The decision did not go through">
      <p className="[overflow-wrap:anywhere]">{error.message}</p>
      {error.issues?.length ? (
        <ul className="mt-1 list-disc pl-5">
          {error.issues.map((issue, index) => (
            <li key={index}>{issue.path ? `${issue.path}: ${issue.message}` : issue.message}</li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

/**
 * The explicit confirmation an interrupted call needs before it is approved or resumed again: the
 * tool may already have run, and running it again may repeat its effect. Shown when the page knew
 * of the interruption, or when the server refused with `confirmation_required`.
 */
export function MayHaveRunConfirmation({
  interrupted,
  serverMessage,
  verb,
  confirmed,
  onConfirmedChange,
  disabled,
}: {
  interrupted?: InterruptedDecision;
  serverMessage?: string;
  verb: "approving" | "resuming";
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
  disabled?: boolean;
}) {
  const checkboxId = useId();
  return (
    <Alert variant="destructive" role="alert" title="This tool may already have run">
      <p className="[overflow-wrap:anywhere]">{interrupted ? interruptionSentence(interrupted) : serverMessage}</p>
      <p className="mt-1">Check its effect first (the tool call id is its idempotency key). Declining never runs the tool.</p>
      <p className="mt-2 flex items-start gap-2">
        <input
          id={checkboxId}
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-red-700"
          checked={confirmed}
          disabled={disabled}
          onChange={(event) => onConfirmedChange(event.target.checked)}
        />
        <label htmlFor={checkboxId} className="font-medium">
          I checked: {verb} again may run the tool a second time.
        </label>
      </p>
    </Alert>
  );
}
