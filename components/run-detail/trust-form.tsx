"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { approveAndTrust } from "@/lib/actions/approve-and-trust";
import type { ClientActionError } from "@/lib/actions/result";
import type { DecisionOutcome } from "@/lib/decisions/types";
import { isTimeZone } from "@/lib/i18n/time-zones";
import { TRUST_DURATIONS, trustableFields, type TrustDuration } from "@/lib/rules/trust-fields";
import { Button } from "@/components/ui/button";
import { DecisionErrorAlert } from "./decision-error-alert";
import { isAlreadyDecided, useDecide } from "./use-decide";

interface TrustFormProps {
  runId: string;
  toolCallId: string;
  toolName: string;
  /** The call's arguments: their scalar fields are offered as conditions (none ticked). */
  args: unknown;
  /** The reviewer confirmed that approving an interrupted call again may run its tool twice. */
  confirmMayHaveRun?: boolean;
  /** Approving needs that confirmation first (the approval form shows it). */
  blocked: boolean;
  compact?: boolean;
  onDecided: (outcome: DecisionOutcome) => void;
  onDecidedElsewhere?: (error: ClientActionError) => void;
  onCancel: () => void;
  /** The approval form shows it is busy while this sends. */
  onPendingChange: (pending: boolean) => void;
}

/** The browser's own zone, for a reviewer who chose none on /profile ("today" ends at its midnight). */
function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isTimeZone(zone) ? zone : undefined;
}

/**
 * Approve, and approve the same calls for a while (lib/rules/trust.ts): how long, and which of the
 * call's arguments must stay the same. The server reads the values from the call itself.
 */
export function TrustForm({
  runId,
  toolCallId,
  toolName,
  args,
  confirmMayHaveRun,
  blocked,
  compact = false,
  onDecided,
  onDecidedElsewhere,
  onCancel,
  onPendingChange,
}: TrustFormProps) {
  const t = useTranslations();
  const groupId = useId();
  const send = useDecide({ deferListUpdate: compact });
  const fields = trustableFields(args);
  const [duration, setDuration] = useState<TrustDuration>("15m");
  const [same, setSame] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ClientActionError | null>(null);

  async function submit() {
    if (pending || blocked) return;
    setPending(true);
    onPendingChange(true);
    setError(null);
    const sameArguments = fields.map((field) => field.path).filter((path) => same.has(path));
    const result = await send(() =>
      approveAndTrust({
        runId,
        toolCallId,
        duration,
        sameArguments,
        timeZone: browserTimeZone(),
        ...(confirmMayHaveRun ? { confirmMayHaveRun } : {}),
      }),
    );
    setPending(false);
    onPendingChange(false);
    if (result.ok) onDecided(result.data);
    else {
      if (isAlreadyDecided(result.error)) onDecidedElsewhere?.(result.error);
      setError(result.error);
    }
  }

  const toggle = (path: string, ticked: boolean) =>
    setSame((current) => {
      const next = new Set(current);
      if (ticked) next.add(path);
      else next.delete(path);
      return next;
    });

  return (
    <div className="flex flex-col gap-3 rounded-lg border border-neutral-200 bg-neutral-50 p-3 text-sm" data-testid="trust-form">
      <p className="text-neutral-700">{t("decision.trustExplain", { tool: toolName })}</p>
      <fieldset className="flex flex-col gap-1.5" disabled={pending}>
        <legend className="mb-1 font-medium text-neutral-900">{t("decision.trustFor")}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {TRUST_DURATIONS.map((choice) => (
            <label key={choice} className="inline-flex min-h-8 items-center gap-2">
              <input
                type="radio"
                name={`${groupId}-duration`}
                value={choice}
                checked={duration === choice}
                onChange={() => setDuration(choice)}
                className="h-4 w-4 accent-neutral-900"
              />
              {t("decision.trustDuration", { duration: choice })}
            </label>
          ))}
        </div>
      </fieldset>
      {fields.length > 0 ? (
        <fieldset className="flex min-w-0 flex-col gap-1.5" disabled={pending}>
          <legend className="mb-1 font-medium text-neutral-900">{t("decision.trustSame")}</legend>
          {fields.map((field) => (
            <label key={field.path} className="flex min-h-8 min-w-0 items-start gap-2">
              <input
                type="checkbox"
                checked={same.has(field.path)}
                onChange={(event) => toggle(field.path, event.target.checked)}
                className="mt-0.5 h-4 w-4 shrink-0 accent-neutral-900"
              />
              <span className="min-w-0 font-mono text-xs [overflow-wrap:anywhere]">
                {field.path} = {JSON.stringify(field.value)}
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <p className="text-xs text-neutral-600">{t("decision.trustHint")}</p>
      {error ? <DecisionErrorAlert error={error} compact={compact} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button size={compact ? "sm" : "default"} onClick={() => void submit()} disabled={pending || blocked}>
          {pending ? t("decision.approving") : t("decision.trustSubmit", { duration })}
        </Button>
        <Button variant="ghost" size={compact ? "sm" : "default"} onClick={onCancel} disabled={pending}>
          {t("common.cancel")}
        </Button>
      </div>
    </div>
  );
}
