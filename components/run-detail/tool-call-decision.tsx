"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useCallback, useState, type Ref } from "react";
import type { ClientActionError } from "@/lib/actions/result";
import { DECIDING, type DecisionOutcome, type InFlightDecision, type InterruptedDecision, type MarkedExpiry } from "@/lib/decisions/types";
import type { AssigneeDto } from "@/lib/queue/dto";
import { useApprovalProgressText, useMarkedExpirySentence } from "@/components/runs/decision-badges";
import { useAnnounce } from "@/components/runs/decision-announcer";
import { useDecisionAnnouncement } from "@/components/runs/decision-announcement";
import { refreshRuns } from "@/components/runs/runs-query";
import { useTimestamp } from "@/components/time";
import { useViewer } from "@/components/viewer";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ApprovalForm } from "./approval-form";
import { DecisionResult, DecisionStatusMessage } from "./decision-outcome";
import { ResumeForm } from "./resume-form";
import { noLongerWaits, useRunDecisions } from "./run-decisions";
import { useDecisionSentences } from "./run-headline";
import { DecisionSentContext, type DecisionControls } from "./use-decide";
import { useArgsDigest } from "./use-args-digest";
import { shownValue } from "@/lib/audit/args-digest-text";

interface ToolCallDecisionProps {
  runId: string;
  toolCallId?: string;
  toolName: string;
  requiresApproval: boolean;
  resumeSchema?: unknown;
  /** The suspended tool's payload: the resume editor offers the values it proposes. */
  suspendPayload?: unknown;
  /** The call's last decision was interrupted: its tool may already have run. */
  interrupted?: InterruptedDecision;
  /** Somebody's decision on this call is being carried out: nobody else can decide it meanwhile. */
  inFlight?: InFlightDecision;
  /** Who holds the call: when only the assignee may decide and that is someone else, no form. */
  assignee?: AssigneeDto;
  /** The call's expiry rule marked it expired: nobody decides it any more (lib/decisions/mark-expiry.ts). */
  markedExpired?: MarkedExpiry;
  /** False for roles that may only read (support): the server refuses them anyway. */
  canDecide: boolean;
  /**
   * "row": inside the review queue's table: compact forms, the outcome in one line (no answer, no
   * links), and the list is left to the caller, told through `onSettled`.
   */
  variant?: "page" | "row";
  onSettled?: (settled: { outcome: DecisionOutcome } | { elsewhere: ClientActionError }) => void;
  /** A decision is being sent from here: returns what to call once its answer is in (the queue holds the row meanwhile). */
  onSent?: () => () => void;
  controls?: Ref<DecisionControls>;
  /** An approval call's arguments, for Decline and suggest (the run's page gives them). */
  args?: unknown;
  /** An approval call's arguments, for "Approve and trust…" (the run's page and the queue's row give them). */
  trustArgs?: unknown;
}

/** The decision on one pending call: the form, then its outcome. */
export function ToolCallDecision({
  runId,
  toolCallId,
  toolName,
  requiresApproval,
  resumeSchema,
  suspendPayload,
  interrupted,
  inFlight,
  assignee,
  markedExpired,
  canDecide,
  variant = "page",
  onSettled,
  onSent,
  controls,
  args,
  trustArgs,
}: ToolCallDecisionProps) {
  const compact = variant === "row";
  const t = useTranslations("decision");
  const progressText = useApprovalProgressText();
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null);
  const { learn, learned, beingDecided, waitingNow, sent, markSent: noteSent, live } = useRunDecisions();
  // Told by the run page's live stream (run-live.tsx): a colleague decided the call, or is deciding it.
  const learnedHere = toolCallId ? learned[toolCallId] : undefined;
  // Once this reviewer sent a decision here, the server's answer to it is what the card shows (who
  // won, and that theirs was recorded but not carried out), never replaced by the stream's word.
  const sentHere = toolCallId !== undefined && sent.has(toolCallId);
  const markSent = useCallback(() => {
    if (toolCallId) noteSent(toolCallId);
    return onSent?.();
  }, [toolCallId, noteSent, onSent]);
  const decidedElsewhere = !sentHere && learnedHere?.by === "someone-else" && learnedHere.live ? learnedHere.prior : undefined;
  // Who is deciding it: as rendered, until the live stream said otherwise (a decision released again included).
  const claimed = sentHere || !toolCallId || beingDecided === null ? inFlight : beingDecided[toolCallId];
  // The run went on past this call without the console (asked after what the console knows of it).
  const left = !sentHere && noLongerWaits(waitingNow, toolCallId);
  const decisionSentences = useDecisionSentences();
  const viewer = useViewer();
  const reservedFor = assignee?.exclusive && assignee.id !== viewer?.id ? assignee : null;
  // The page's heading follows what this call became (run-headline.tsx).
  const announce = useAnnounce();
  const decisionAnnouncement = useDecisionAnnouncement();
  const markedExpirySentence = useMarkedExpirySentence();
  const queryClient = useQueryClient();
  // What this form shows the reviewer, as the server reads the call (lib/audit/args-digest-text.ts).
  const argsDigest = useArgsDigest(shownValue({ requiresApproval, args: args ?? trustArgs, suspendPayload }));
  const onDecided = (decided: DecisionOutcome) => {
    setOutcome(decided);
    if (decided.runState === "awaiting-approvals") {
      // Only this reviewer's approval: the call stays in the list, now showing who approved, for the others.
      announce(t("approvalCounted", { progress: decided.approvals ? progressText(decided.approvals) : toolName }));
      refreshRuns(queryClient);
      return;
    }
    announce(decisionAnnouncement(decided, toolName));
    if (toolCallId) learn(toolCallId, { by: "you", outcome: decided });
    onSettled?.({ outcome: decided });
  };
  const onDecidedElsewhere = (error: ClientActionError) => {
    announce(t("elsewhereAnnounce", { tool: toolName }));
    if (toolCallId) learn(toolCallId, { by: "someone-else", prior: error.priorDecision });
    onSettled?.({ elsewhere: error });
  };

  return (
    <DecisionSentContext.Provider value={markSent}>
      <div className={compact ? "flex flex-col gap-3" : "flex flex-col gap-4"}>
        {/* Always in the DOM, so assistive technology announces what gets written into it. */}
        <div role="status" aria-live="polite" aria-atomic="true" className="empty:absolute">
          {outcome ? <DecisionStatusMessage outcome={outcome} compact={compact} /> : null}
        </div>
        {outcome ? (
          compact ? null : (
            <DecisionResult outcome={outcome} />
          )
        ) : decidedElsewhere ? (
          <Alert
            variant="default"
            role="status"
            data-testid="decided-elsewhere"
            title={decisionSentences.learned({ by: "someone-else", prior: decidedElsewhere })}
          />
        ) : markedExpired ? (
          <Alert variant="default" role="status" title={t("expired")}>
            {markedExpirySentence(markedExpired)}
          </Alert>
        ) : claimed ? (
          <BeingDecided inFlight={claimed} requiresApproval={requiresApproval} compact={compact} live={live} />
        ) : left ? (
          <Alert variant="default" role="status" data-testid="no-longer-waiting" title={decisionSentences.left()} />
        ) : canDecide && reservedFor ? (
          <p className="rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2.5 text-sm text-neutral-600" data-testid="reserved-for">
            {t("reservedFor", { email: reservedFor.email })}
          </p>
        ) : !canDecide ? (
          <p className="rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2.5 text-sm text-neutral-600">{t("cannotDecide")}</p>
        ) : !toolCallId ? (
          <p className="text-sm text-neutral-600">{t("noToolCallId")}</p>
        ) : requiresApproval ? (
          <ApprovalForm
            runId={runId}
            toolCallId={toolCallId}
            toolName={toolName}
            interrupted={interrupted}
            onDecided={onDecided}
            onDecidedElsewhere={onDecidedElsewhere}
            compact={compact}
            controls={controls}
            args={args}
            trustArgs={trustArgs}
            argsDigest={argsDigest}
          />
        ) : (
          <ResumeForm
            runId={runId}
            toolCallId={toolCallId}
            toolName={toolName}
            resumeSchema={resumeSchema}
            suspendPayload={suspendPayload}
            interrupted={interrupted}
            onDecided={onDecided}
            onDecidedElsewhere={onDecidedElsewhere}
            compact={compact}
            controls={controls}
            argsDigest={argsDigest}
          />
        )}
      </div>
    </DecisionSentContext.Provider>
  );
}

/** The call's buttons, disabled, under who is deciding it: the server would refuse a second decision anyway. */
function BeingDecided({
  inFlight,
  requiresApproval,
  compact,
  live,
}: {
  inFlight: InFlightDecision;
  requiresApproval: boolean;
  compact: boolean;
  /** The run page's live stream is open: it will show where the call ends up. */
  live: boolean;
}) {
  const t = useTranslations("decision");
  const timestamp = useTimestamp();
  return (
    <div className="flex flex-col gap-3">
      <Alert variant="default" role="status" title={t("beingDecidedBy", { reviewer: inFlight.reviewer })}>
        {t("beingDecidedBody", { reviewer: inFlight.reviewer, action: inFlight.action, time: timestamp(inFlight.decidedAt) })}{" "}
        {compact ? t("listFollows") : live ? t("pageFollows") : t("reloadToSee")}
      </Alert>
      <div className="flex flex-wrap gap-2">
        {requiresApproval ? (
          <>
            <Button disabled size={compact ? "sm" : "default"} aria-keyshortcuts={compact ? "A" : undefined}>
              {t("approve")}
            </Button>
            <Button variant="outline" disabled size={compact ? "sm" : "default"} aria-keyshortcuts={compact ? "D" : undefined}>
              {t("decline")}
            </Button>
          </>
        ) : (
          <Button disabled size={compact ? "sm" : "default"}>
            {t("resume")}
          </Button>
        )}
      </div>
    </div>
  );
}
