import { Badge } from "@/components/ui/badge";
import { formatTimestamp } from "@/components/time";
import {
  approvalProgressText,
  DECIDING,
  type ApprovalProgress,
  type InFlightDecision,
  type InterruptedDecision,
  type MarkedExpiry,
} from "@/lib/decisions/types";

/** What an interrupted decision means for the reviewer, in one sentence. */
export function interruptionSentence(interrupted: InterruptedDecision): string {
  return `The server stopped while ${interrupted.reviewer} was ${DECIDING[interrupted.action]} this call (${formatTimestamp(interrupted.decidedAt)}): its tool may already have run.`;
}

/** Marks a pending call whose last decision was interrupted: deciding it again may repeat its effect. */
export function MayHaveRunBadge({ interrupted }: { interrupted: InterruptedDecision }) {
  return (
    <Badge variant="red" title={interruptionSentence(interrupted)}>
      May already have run
    </Badge>
  );
}

/** Marks a call somebody is deciding right now: nobody else can, until it is applied or released. */
export function BeingDecidedBadge({ inFlight }: { inFlight: InFlightDecision }) {
  return (
    <Badge
      variant="blue"
      title={`${inFlight.reviewer} decided this call at ${formatTimestamp(inFlight.decidedAt)}; it is being carried out.`}
    >
      Being decided by {inFlight.reviewer}
    </Badge>
  );
}

/** What a call marked expired means for the reviewer, in one sentence. */
export function markedExpirySentence(expiry: MarkedExpiry): string {
  return `This tool call expired at ${formatTimestamp(expiry.expiredAt)} (${expiry.reason ?? "no reviewer in time"}). Its expiry rule only marks calls expired: the agent was not told and its run still waits in the store, but it can no longer be decided here.`;
}

/** Marks a call its expiry rule marked expired (mode "mark"): listed while its run waits, never decidable again. */
export function ExpiredBadge({ expiry }: { expiry: MarkedExpiry }) {
  return (
    <Badge variant="red" title={markedExpirySentence(expiry)}>
      Expired {formatTimestamp(expiry.expiredAt)}
    </Badge>
  );
}

/** A call that needs several people's approvals: "1 of 2 approvals (Rita)", each approval's time in the title. */
export function ApprovalsBadge({ approvals }: { approvals: ApprovalProgress }) {
  const when = approvals.approvals.map((approval) => `${approval.reviewer} approved at ${formatTimestamp(approval.approvedAt)}.`);
  return (
    <Badge variant="blue" title={[`Needs ${approvals.required} approvals from ${approvals.required} different people.`, ...when].join(" ")}>
      {approvalProgressText(approvals)}
    </Badge>
  );
}
