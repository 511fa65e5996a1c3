"use client";

/** A refused or failed decision, and the special case of a call somebody else decided first. */
import Link from "next/link";
import type { ClientActionError } from "@/lib/actions/result";
import { DECIDED } from "@/lib/decisions/types";
import { formatTimestamp } from "@/components/time";
import { Alert } from "@/components/ui/alert";
import { isAlreadyDecided } from "./use-decide";

/** `compact`: in a row of the review queue, which the call leaves by itself (no link back to it). */
export function DecisionErrorAlert({ error, compact = false }: { error: ClientActionError; compact?: boolean }) {
  const prior = error.priorDecision;
  // The runs list already re-read the server when this came back (use-decide.ts).
  if (isAlreadyDecided(error) && compact) {
    return (
      <Alert variant="warning" role="alert" title={alreadyDecidedTitle(prior)}>
        {prior ? null : <p className="[overflow-wrap:anywhere]">{error.message} </p>}
        Yours was recorded in the history and not carried out.
      </Alert>
    );
  }
  if (isAlreadyDecided(error)) {
    return (
      <Alert variant="warning" role="alert" title="This call was already decided">
        <p>
          {prior?.reviewer
            ? `${prior.reviewer} ${DECIDED[prior.action]} it${prior.decidedAt ? ` at ${formatTimestamp(prior.decidedAt)}` : ""}. `
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
      <IssueList issues={error.issues} />
    </Alert>
  );
}

/** "Already decided by alice@… at 2025-…", or without who when the server could not say. */
export function alreadyDecidedTitle(prior: ClientActionError["priorDecision"]): string {
  if (!prior?.reviewer) return "Already decided by another reviewer or process";
  return `Already decided by ${prior.reviewer}${prior.decidedAt ? ` at ${formatTimestamp(prior.decidedAt)}` : ""}`;
}

/** The server's list of what was wrong with the input, each a sentence naming its field (lib/decisions/issues.ts); nothing when there is none. */
export function IssueList({ issues, className = "" }: { issues?: ClientActionError["issues"]; className?: string }) {
  if (!issues?.length) return null;
  return (
    <ul className={`mt-1 list-disc pl-5 ${className}`}>
      {issues.map((issue, index) => (
        <li key={index}>{issue.message}</li>
      ))}
    </ul>
  );
}
