import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { Badge } from "@/components/ui/badge";
import { useTimestamp } from "@/components/time";
import type { ApprovalProgress, InFlightDecision, InterruptedDecision, MarkedExpiry } from "@/lib/decisions/types";

/** What an interrupted decision means for the reviewer, in one sentence of the reader's language. */
export function useInterruptionSentence(): (interrupted: InterruptedDecision) => string {
  const t = useTranslations("queue.badges");
  const timestamp = useTimestamp();
  return useCallback(
    (interrupted) =>
      t("interrupted", { reviewer: interrupted.reviewer, action: interrupted.action, time: timestamp(interrupted.decidedAt) }),
    [t, timestamp],
  );
}

/** Marks a pending call whose last decision was interrupted: deciding it again may repeat its effect. */
export function MayHaveRunBadge({ interrupted }: { interrupted: InterruptedDecision }) {
  const t = useTranslations("queue.badges");
  const sentence = useInterruptionSentence();
  return (
    <Badge variant="red" title={sentence(interrupted)}>
      {t("mayHaveRun")}
    </Badge>
  );
}

/** Marks a call somebody is deciding right now: nobody else can, until it is applied or released. */
export function BeingDecidedBadge({ inFlight }: { inFlight: InFlightDecision }) {
  const t = useTranslations("queue.badges");
  const decision = useTranslations("decision");
  const timestamp = useTimestamp();
  return (
    <Badge variant="blue" wraps title={t("beingDecidedTitle", { reviewer: inFlight.reviewer, time: timestamp(inFlight.decidedAt) })}>
      {decision("beingDecidedBy", { reviewer: inFlight.reviewer })}
    </Badge>
  );
}

/** What a call marked expired means for the reviewer, in one sentence of the reader's language. */
export function useMarkedExpirySentence(): (expiry: MarkedExpiry) => string {
  const t = useTranslations("queue.badges");
  const timestamp = useTimestamp();
  return useCallback(
    (expiry) => t("expiredSentence", { time: timestamp(expiry.expiredAt), reason: expiry.reason ?? t("noReviewerInTime") }),
    [t, timestamp],
  );
}

/** Marks a call its expiry rule marked expired (mode "mark"): listed while its run waits, never decidable again. */
export function ExpiredBadge({ expiry }: { expiry: MarkedExpiry }) {
  const t = useTranslations("queue.badges");
  const sentence = useMarkedExpirySentence();
  const timestamp = useTimestamp();
  return (
    <Badge variant="red" wraps title={sentence(expiry)}>
      {t("expiredAt", { time: timestamp(expiry.expiredAt) })}
    </Badge>
  );
}

/** "1 of 2 approvals (Rita)": how far a call that needs several approvals is (also in the
 * decision UI, the bulk results and the live region; server-safe, so the run page renders it too). */
export function useApprovalProgressText(): (progress: ApprovalProgress) => string {
  const t = useTranslations("decision");
  return (progress) => {
    const count = progress.approvals.length;
    const names = progress.approvals.map((approval) => approval.reviewer).join(", ");
    return count
      ? t("approvalProgressBy", { count, required: progress.required, names })
      : t("approvalProgress", { count, required: progress.required });
  };
}

/** A call that needs several people's approvals: "1 of 2 approvals (Rita)", each approval's time in the title. */
export function ApprovalsBadge({ approvals }: { approvals: ApprovalProgress }) {
  const t = useTranslations("queue.badges");
  const timestamp = useTimestamp();
  const progressText = useApprovalProgressText();
  const when = approvals.approvals.map((approval) =>
    t("approvedAt", { reviewer: approval.reviewer, time: timestamp(approval.approvedAt) }),
  );
  return (
    <Badge variant="blue" wraps title={[t("needsApprovals", { required: approvals.required }), ...when].join(" ")}>
      {progressText(approvals)}
    </Badge>
  );
}
