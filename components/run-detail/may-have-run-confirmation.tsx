"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import type { InterruptedDecision } from "@/lib/decisions/types";
import { useInterruptionSentence } from "@/components/runs/decision-badges";
import { Alert } from "@/components/ui/alert";

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
  const t = useTranslations("decision");
  const interruptionSentence = useInterruptionSentence();
  return (
    <Alert variant="destructive" role="alert" title={t("mayHaveRunTitle")}>
      <p className="[overflow-wrap:anywhere]">{interrupted ? interruptionSentence(interrupted) : serverMessage}</p>
      <p className="mt-1">{t("mayHaveRunCheck")}</p>
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
          {t("mayHaveRunConfirm", { verb })}
        </label>
      </p>
    </Alert>
  );
}
