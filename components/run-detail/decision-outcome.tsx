"use client";

/** What the reviewer sees once a decision went through: the announcement and the agent's answer. */
import Link from "next/link";
import { useId } from "react";
import { approvalProgressText, type DecisionOutcome } from "@/lib/decisions/types";
import { continuerOf } from "@agent-approvals/mastra-store/run-kinds";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";

type DecisionAction = DecisionOutcome["action"];

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const DONE: Record<DecisionAction, string> = { approve: "Approved.", decline: "Declined.", resume: "Resumed.", expire: "Expired." };

const DONE_IN_ROW: Record<DecisionAction, string> = { approve: "Approved", decline: "Declined", resume: "Resumed", expire: "Expired" };

/** The outcome in one line, as a row of the review queue shows it before the call leaves. */
export function rowOutcomeText(outcome: DecisionOutcome): string {
  if (outcome.runState === "awaiting-approvals") return awaitingText(outcome);
  return `${DONE_IN_ROW[outcome.action]} — ${continuerOf(outcome.agentId)} continued${outcome.runState === "completed" ? " and finished the run." : " and stopped again for another call."}`;
}

/** One approval of a call that needs several: "Your approval counts: 1 of 2 approvals (Rita). …" */
function awaitingText(outcome: DecisionOutcome): string {
  const progress = outcome.approvals ? `${approvalProgressText(outcome.approvals)}. ` : "";
  return `Your approval counts: ${progress}Another reviewer must approve it before the tool runs; nothing was sent to the agent yet.`;
}

/** The announcement of a decision that went through; rendered inside the call's role="status" region. */
export function DecisionStatusMessage({ outcome, compact = false }: { outcome: DecisionOutcome; compact?: boolean }) {
  if (compact) return <Alert variant="success" title={rowOutcomeText(outcome)} />;
  if (outcome.runState === "awaiting-approvals") {
    return (
      <Alert variant="success" title="Your approval counts.">
        {awaitingText(outcome)}
      </Alert>
    );
  }
  return (
    <Alert variant="success" title={DONE[outcome.action]}>
      {outcome.runState === "completed"
        ? `${capitalized(continuerOf(outcome.agentId))} carried on and finished the run; it has left the pending list.`
        : `${capitalized(continuerOf(outcome.agentId))} carried on and stopped again: it waits for another decision on this run.`}
    </Alert>
  );
}

/** What the reviewer sees once the decision went through: the agent's answer and where to go next. */
export function DecisionResult({ outcome }: { outcome: DecisionOutcome }) {
  const headingId = useId();
  return (
    <div className="flex flex-col gap-4">
      {/* A workflow answers with its run's state, not with text; an approval still waiting for others has no answer yet. */}
      {continuerOf(outcome.agentId) === "the agent" && outcome.runState !== "awaiting-approvals" ? (
        <section aria-labelledby={headingId} className="flex flex-col gap-2">
          <h3 id={headingId} className="text-sm font-semibold text-neutral-900">
            Agent&apos;s answer
          </h3>
          <p className="whitespace-pre-wrap rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2.5 text-sm leading-relaxed text-neutral-800 [overflow-wrap:anywhere]">
            {outcome.answer.trim() || <span className="italic text-neutral-500">The agent returned no text.</span>}
          </p>
        </section>
      ) : null}
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
