"use client";

import { useTranslations } from "next-intl";
import { useId, useImperativeHandle, useRef, useState, type Ref } from "react";
import { approveToolCall } from "@/lib/actions/approve-tool-call";
import { declineToolCall } from "@/lib/actions/decline-tool-call";
import type { ClientActionError } from "@/lib/actions/result";
import type { DecisionOutcome, InterruptedDecision } from "@/lib/decisions/types";
import { LIMITS } from "@/lib/decisions/limits";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Label } from "@/components/ui/label";
import { THUMB_DECISION_CLASSES } from "@/components/ui/thumb-target";
import { Textarea } from "@/components/ui/textarea";
import { DecisionErrorAlert } from "./decision-error-alert";
import { MayHaveRunConfirmation } from "./may-have-run-confirmation";
import { SuggestForm } from "./suggest-form";
import { TrustForm } from "./trust-form";
import { isAlreadyDecided, useDecide, type DecisionControls } from "./use-decide";
import type { ArgsDigestOf } from "./use-args-digest";

interface ApprovalFormProps {
  runId: string;
  toolCallId: string;
  toolName: string;
  /** The call's last decision was interrupted: approving again needs an explicit confirmation. */
  interrupted?: InterruptedDecision;
  onDecided: (outcome: DecisionOutcome) => void;
  /** Somebody (or something) decided the call first: the server refused with who, what and when. */
  onDecidedElsewhere?: (error: ClientActionError) => void;
  /** A row of the review queue: a shorter layout, Enter in the reason declines, the list updated by the caller. */
  compact?: boolean;
  /** The keyboard's handle on the form (review queue shortcuts). */
  controls?: Ref<DecisionControls>;
  /** The call's arguments: given, the form offers Decline and suggest, starting from them. */
  args?: unknown;
  /** The call's arguments again: given, the form offers "Approve and trust…", its scalar fields as conditions. */
  trustArgs?: unknown;
  /** Takes the digest of the arguments shown (use-args-digest.ts), sent with the decision. */
  argsDigest?: ArgsDigestOf;
}

/** Approve, or decline with an optional reason the agent gets to see. */
export function ApprovalForm({
  runId,
  toolCallId,
  toolName,
  interrupted,
  onDecided,
  onDecidedElsewhere,
  compact = false,
  controls,
  args,
  trustArgs,
  argsDigest,
}: ApprovalFormProps) {
  const t = useTranslations("decision");
  const reasonId = useId();
  const hintId = useId();
  const send = useDecide({ deferListUpdate: compact });
  const approveRef = useRef<HTMLButtonElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState<"approve" | "decline" | "suggest" | "trust" | null>(null);
  const [suggesting, setSuggesting] = useState(false);
  const [trusting, setTrusting] = useState(false);
  const [error, setError] = useState<ClientActionError | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const needsConfirmation = Boolean(interrupted) || error?.code === "confirmation_required";

  async function decide(action: "approve" | "decline") {
    if (pending) return;
    // The keyboard reaches here too: an interrupted call is never approved without the tick.
    if (action === "approve" && needsConfirmation && !confirmed) {
      confirmRef.current?.querySelector("input")?.focus();
      return;
    }
    setPending(action);
    setError(null);
    const digest = await argsDigest?.();
    const result = await send(() =>
      action === "approve"
        ? approveToolCall({ runId, toolCallId, argsDigest: digest, ...(needsConfirmation && confirmed ? { confirmMayHaveRun: true } : {}) })
        : declineToolCall({ runId, toolCallId, argsDigest: digest, reason: reason.trim() || undefined }),
    );
    setPending(null);
    if (result.ok) onDecided(result.data);
    else {
      if (isAlreadyDecided(result.error)) onDecidedElsewhere?.(result.error);
      setError(result.error);
    }
  }

  useImperativeHandle(controls, () => ({
    approve: () => void decide("approve"),
    focusApprove: () => approveRef.current?.focus(),
    focusReason: () => reasonRef.current?.focus(),
    focusResume: () => {},
  }));

  // Decided elsewhere: nothing left to decide here.
  if (error && isAlreadyDecided(error)) return <DecisionErrorAlert error={error} compact={compact} />;

  return (
    <div className={compact ? "flex flex-col gap-3" : "flex flex-col gap-4"}>
      {/* Below 640 px, as in a queue row, Approve follows the arguments without it (read aloud still): on a phone's first screen. */}
      {compact ? null : (
        <p className="text-sm text-neutral-600 max-sm:sr-only">
          {t.rich("wantsToCall", { tool: () => <span className="font-mono font-medium text-neutral-900">{toolName}</span> })}
        </p>
      )}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={reasonId}>{t("reason")}</Label>
        <Textarea
          ref={reasonRef}
          id={reasonId}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onKeyDown={(event) => {
            // In a queue row the reason is one line: Enter sends the decline, Shift+Enter breaks the line.
            if (compact && event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void decide("decline");
            }
          }}
          maxLength={LIMITS.reasonLength}
          rows={compact ? 2 : 3}
          disabled={pending !== null}
          aria-describedby={hintId}
          placeholder={t("reasonPlaceholder")}
        />
        <p id={hintId} className="text-xs text-neutral-500">
          {t("reasonHint")}
          {/* Enter declines only in a row, and is no help without a keyboard (a touch screen). */}
          {compact ? <span className="pointer-coarse:hidden"> {t("reasonEnterHint")}</span> : null}{" "}
          {reason.length > 0 ? `${reason.length}/${LIMITS.reasonLength}` : null}
        </p>
      </div>
      {needsConfirmation ? (
        <div ref={confirmRef}>
          <MayHaveRunConfirmation
            interrupted={interrupted}
            serverMessage={error?.code === "confirmation_required" ? error.message : undefined}
            verb="approving"
            confirmed={confirmed}
            onConfirmedChange={setConfirmed}
            disabled={pending !== null}
          />
        </div>
      ) : null}
      {error && error.code !== "confirmation_required" ? <DecisionErrorAlert error={error} compact={compact} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          ref={approveRef}
          size={compact ? "sm" : "default"}
          aria-keyshortcuts={compact ? "A" : undefined}
          onClick={() => void decide("approve")}
          disabled={pending !== null || (needsConfirmation && !confirmed)}
          className={THUMB_DECISION_CLASSES}
        >
          {pending === "approve" ? t("approving") : t("approve")}
        </Button>
        {trustArgs !== undefined ? (
          <Button
            variant="outline"
            size={compact ? "sm" : "default"}
            aria-expanded={trusting}
            onClick={() => setTrusting((open) => !open)}
            disabled={pending !== null}
          >
            {t("trust")}
          </Button>
        ) : null}
        <Button
          variant="outline"
          size={compact ? "sm" : "default"}
          aria-keyshortcuts={compact ? "D" : undefined}
          className={cn("text-red-700 hover:bg-red-50 hover:text-red-800", THUMB_DECISION_CLASSES)}
          onClick={() => void decide("decline")}
          disabled={pending !== null}
        >
          {pending === "decline" ? t("declining") : t("decline")}
        </Button>
        {args !== undefined && !suggesting ? (
          <Button variant="ghost" size={compact ? "sm" : "default"} onClick={() => setSuggesting(true)} disabled={pending !== null}>
            {t("suggest")}
          </Button>
        ) : null}
      </div>
      {trustArgs !== undefined && trusting ? (
        <TrustForm
          runId={runId}
          toolCallId={toolCallId}
          toolName={toolName}
          args={trustArgs}
          confirmMayHaveRun={needsConfirmation && confirmed}
          blocked={needsConfirmation && !confirmed}
          compact={compact}
          onDecided={onDecided}
          onDecidedElsewhere={onDecidedElsewhere}
          onCancel={() => setTrusting(false)}
          onPendingChange={(busy) => setPending(busy ? "trust" : null)}
        />
      ) : null}
      {args !== undefined && suggesting ? (
        <SuggestForm
          runId={runId}
          toolCallId={toolCallId}
          toolName={toolName}
          args={args}
          note={reason}
          onDecided={onDecided}
          onDecidedElsewhere={onDecidedElsewhere}
          onCancel={() => setSuggesting(false)}
          onPendingChange={(busy) => setPending(busy ? "suggest" : null)}
        />
      ) : null}
    </div>
  );
}
