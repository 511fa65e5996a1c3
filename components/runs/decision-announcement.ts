"use client";

/**
 * The words of the console's live region after a decision: apart from its provider
 * (decision-announcer.tsx), which the root layout renders, so that the layout's messages need not
 * carry the queue's catalog.
 */
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import type { DecisionOutcome } from "@/lib/decisions/types";

/** What the region says once a decision on `toolName` went through ("Approved issueRefund"), in the reader's language. */
export function useDecisionAnnouncement(): (outcome: Pick<DecisionOutcome, "action">, toolName: string) => string {
  const t = useTranslations("queue");
  return useCallback((outcome, toolName) => t("announce", { action: outcome.action, tool: toolName }), [t]);
}
