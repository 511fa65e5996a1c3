"use client";

/** A refused or failed decision, and the special case of a call somebody else decided first. */
import { useTranslations } from "next-intl";
import Link from "next/link";
import type { ClientActionError } from "@/lib/actions/result";
import { useTimestamp } from "@/components/time";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { isAlreadyDecided } from "./use-decide";
import { useIssueText } from "./issue-text";

/** `compact`: in a row of the review queue, which the call leaves by itself (no link back to it). */
export function DecisionErrorAlert({ error, compact = false }: { error: ClientActionError; compact?: boolean }) {
  const prior = error.priorDecision;
  const t = useTranslations();
  const timestamp = useTimestamp();
  const errorText = useErrorText();
  const alreadyDecidedTitle = useAlreadyDecidedTitle();
  // The runs list already re-read the server when this came back (use-decide.ts).
  if (isAlreadyDecided(error) && compact) {
    return (
      <Alert variant="warning" role="alert" title={alreadyDecidedTitle(prior)}>
        {prior ? null : <p className="[overflow-wrap:anywhere]">{errorText(error)} </p>}
        {t("decision.yoursRecorded")}
      </Alert>
    );
  }
  if (isAlreadyDecided(error)) {
    return (
      <Alert variant="warning" role="alert" title={t("decision.alreadyTitle")}>
        <p>
          {prior?.reviewer
            ? prior.decidedAt
              ? t("decision.priorDecidedAt", { reviewer: prior.reviewer, action: prior.action, time: timestamp(prior.decidedAt) })
              : t("decision.priorDecided", { reviewer: prior.reviewer, action: prior.action })
            : t("decision.priorUnknown")}{" "}
          {t("decision.yoursRecorded")}
        </p>
        {prior ? null : <p className="mt-1 text-xs opacity-80">{errorText(error)}</p>}
        <p className="mt-2">
          <Link href="/" className="font-medium underline underline-offset-4">
            {t("common.backToPending")}
          </Link>
        </p>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive" role="alert" title={t("decision.didNotGoThrough")}>
      <p className="[overflow-wrap:anywhere]">{errorText(error)}</p>
      <IssueList issues={error.issues} />
    </Alert>
  );
}

/** "Already decided by alice@… at …", or without who when the server could not say. */
export function useAlreadyDecidedTitle(): (prior: ClientActionError["priorDecision"]) => string {
  const t = useTranslations("decision");
  const timestamp = useTimestamp();
  return (prior) => {
    if (!prior?.reviewer) return t("alreadyByOther");
    return prior.decidedAt
      ? t("alreadyByAt", { reviewer: prior.reviewer, time: timestamp(prior.decidedAt) })
      : t("alreadyBy", { reviewer: prior.reviewer });
  };
}

/** The server's list of what was wrong with the input, each a sentence naming its field (lib/decisions/issues.ts); nothing when there is none. */
export function IssueList({ issues, className = "" }: { issues?: ClientActionError["issues"]; className?: string }) {
  const issueText = useIssueText();
  if (!issues?.length) return null;
  return (
    <ul className={`mt-1 list-disc pl-5 ${className}`}>
      {issues.map((issue, index) => (
        <li key={index}>{issueText(issue)}</li>
      ))}
    </ul>
  );
}
