"use client";

/** What the reviewer sees once a decision went through: the announcement and the agent's answer. */
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useId } from "react";
import type { DecisionOutcome } from "@/lib/decisions/types";
import type { TrustOutcome } from "@/lib/rules/dto";
import { continuerOf } from "@agent-approvals/mastra-store/run-kinds";
import { useApprovalProgressText } from "@/components/runs/decision-badges";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { useTimestamp } from "@/components/time";

const continuer = (outcome: DecisionOutcome) => (continuerOf(outcome.agentId) === "the workflow" ? "workflow" : "agent");

/** The outcome in one line, as a row of the review queue shows it before the call leaves. */
export function useRowOutcomeText(): (outcome: DecisionOutcome) => string {
  const t = useTranslations("decision");
  const awaiting = useAwaitingText();
  return (outcome) =>
    outcome.runState === "awaiting-approvals"
      ? awaiting(outcome)
      : t("rowOutcome", {
          action: outcome.action,
          continuer: continuer(outcome),
          finished: outcome.runState === "completed" ? "yes" : "no",
        });
}

/** One approval of a call that needs several: "Your approval counts: 1 of 2 approvals (Rita). …" */
function useAwaitingText(): (outcome: DecisionOutcome) => string {
  const t = useTranslations("decision");
  const progressText = useApprovalProgressText();
  return (outcome) => t("awaiting", { progress: outcome.approvals ? progressText(outcome.approvals) : "" });
}

/** "Approve and trust" made a rule: until when it approves the same calls, and its name. */
function TrustedNote({ outcome }: { outcome: DecisionOutcome | TrustOutcome }) {
  const t = useTranslations("decision");
  const timestamp = useTimestamp();
  if (!("trustedRule" in outcome) || outcome.runState === "awaiting-approvals") return null;
  const rule = outcome.trustedRule;
  if (!rule?.expiresAt) {
    return (
      <p className="text-sm text-amber-800" data-testid="trusted-note">
        {t("trustNotSaved")}
      </p>
    );
  }
  return (
    <p className="text-sm text-neutral-700 [overflow-wrap:anywhere]" data-testid="trusted-note">
      {t.rich("trustedUntil", { name: rule.name, time: () => <time dateTime={rule.expiresAt!}>{timestamp(rule.expiresAt!)}</time> })}
    </p>
  );
}

/** The announcement of a decision that went through; rendered inside the call's role="status" region. */
export function DecisionStatusMessage({ outcome, compact = false }: { outcome: DecisionOutcome | TrustOutcome; compact?: boolean }) {
  const t = useTranslations("decision");
  const rowOutcomeText = useRowOutcomeText();
  const awaiting = useAwaitingText();
  if (compact) {
    return (
      <>
        <Alert variant="success" title={rowOutcomeText(outcome)} />
        <TrustedNote outcome={outcome} />
      </>
    );
  }
  if (outcome.runState === "awaiting-approvals") {
    return (
      <Alert variant="success" title={t("awaitingTitle")}>
        {awaiting(outcome)}
      </Alert>
    );
  }
  return (
    <>
      <Alert variant="success" title={t("done", { action: outcome.action })}>
        {outcome.runState === "completed"
          ? t("carriedOnFinished", { continuer: continuer(outcome) })
          : t("carriedOnWaiting", { continuer: continuer(outcome) })}
      </Alert>
      <TrustedNote outcome={outcome} />
    </>
  );
}

/** What the reviewer sees once the decision went through: the agent's answer and where to go next. */
export function DecisionResult({ outcome }: { outcome: DecisionOutcome }) {
  const headingId = useId();
  const t = useTranslations();
  return (
    <div className="flex flex-col gap-4">
      {/* A workflow answers with its run's state, not with text; an approval still waiting for others has no answer yet. */}
      {continuerOf(outcome.agentId) === "the agent" && outcome.runState !== "awaiting-approvals" ? (
        <section aria-labelledby={headingId} className="flex flex-col gap-2">
          <h3 id={headingId} className="text-sm font-semibold text-neutral-900">
            {t("decision.agentsAnswer")}
          </h3>
          <p className="whitespace-pre-wrap rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2.5 text-sm leading-relaxed text-neutral-800 [overflow-wrap:anywhere]">
            {outcome.answer.trim() || <span className="italic text-neutral-500">{t("decision.noText")}</span>}
          </p>
        </section>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Link href="/" className={buttonClasses({ variant: "default", size: "sm" })}>
          {t("common.backToPending")}
        </Link>
        {outcome.runState === "waiting-again" ? (
          // A full load: the server page reads the run's new pending call.
          <a href={`/runs/${encodeURIComponent(outcome.runId)}`} className={buttonClasses({ variant: "outline", size: "sm" })}>
            {t("decision.reviewNext")}
          </a>
        ) : null}
      </div>
    </div>
  );
}
