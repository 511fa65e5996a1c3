"use client";

/**
 * Approve selected / Decline selected: one bulk request (decideInBulk, the same exactly-once path as
 * a single decision, call by call), then what became of each call in its row and in one line.
 */
import { useTranslations } from "next-intl";
import { useCallback, useMemo, useState } from "react";
import { decideInBulk } from "@/lib/actions/decide-in-bulk";
import type { BulkCallResult, BulkOutcome } from "@/lib/decisions/types";
import { useErrorText } from "@/components/error-text";
import { useApprovalProgressText } from "./decision-badges";
import { useTimestamp } from "@/components/time";
import type { BulkAction } from "./bulk-bar";
import { callRowId } from "./runs-table-lingering";
import type { Leaving, RowNote } from "./use-lingering";
import type { SelectedCall } from "./use-selection";

/** Long enough to read what became of each call before the decided ones leave. */
const BULK_LINGER_MS = 4_000;

/** What became of each call and of the whole request, in the reader's words (queue.bulk). */
function useBulkWords() {
  const t = useTranslations("queue.bulk");
  const timestamp = useTimestamp();
  const progressText = useApprovalProgressText();
  const errorText = useErrorText();

  return useMemo(() => {
    const who = (result: BulkCallResult): string => {
      const by = result.decidedBy ?? t("anotherReviewer");
      return result.decidedAt ? t("whoAt", { by, time: timestamp(result.decidedAt) }) : by;
    };
    // The server's words for a refusal or failure: its message in English, the catalog's for its code otherwise.
    const why = (result: BulkCallResult, fallback: string): string =>
      result.code ? errorText({ code: result.code, message: result.message ?? "" }) : (result.message ?? fallback);

    const rowNote = (action: BulkAction, result: BulkCallResult): RowNote => {
      switch (result.status) {
        case "applied":
          return { tone: "success", text: t("applied", { action, again: result.runState === "waiting-again" ? "yes" : "no" }) };
        case "awaiting_approvals":
          return {
            tone: "success",
            text: t("awaiting", { progress: result.approvals ? progressText(result.approvals) : t("moreNeeded") }),
          };
        case "already_decided":
          return { tone: "warning", text: t("alreadyBy", { who: who(result) }) };
        case "refused":
          return { tone: "error", text: t("refused", { message: why(result, t("refusedDefault")) }) };
        case "failed":
          return { tone: "error", text: t("failed", { message: why(result, t("failedDefault")) }) };
      }
    };

    /** "9 applied, 1 already decided by alice@… at …". */
    const summary = (outcome: BulkOutcome): string => {
      const of = (status: BulkCallResult["status"]) => outcome.results.filter((result) => result.status === status);
      const parts: string[] = [];
      const applied = of("applied").length;
      if (applied > 0 || outcome.results.length === 0) parts.push(t("summaryApplied", { count: applied }));
      const waiting = of("awaiting_approvals").length;
      if (waiting) parts.push(t("summaryWaiting", { count: waiting }));
      const already = of("already_decided");
      if (already.length === 1) parts.push(t("summaryAlreadyOne", { who: who(already[0]!) }));
      else if (already.length > 1) {
        const names = [...new Set(already.map((result) => result.decidedBy ?? t("anotherProcess")))].join(", ");
        parts.push(t("summaryAlreadyMany", { count: already.length, names }));
      }
      if (of("refused").length) parts.push(t("summaryRefused", { count: of("refused").length }));
      if (of("failed").length) parts.push(t("summaryFailed", { count: of("failed").length }));
      return t("summary", { parts: parts.join(", ") });
    };

    return {
      rowNote,
      summary,
      unreachable: () => t("nothingUnreachable"),
      refusedAll: (error: Parameters<typeof errorText>[0]) => t("nothingDecided", { message: errorText(error) }),
    };
  }, [t, timestamp, progressText, errorText]);
}

export function useBulkDecision({
  note,
  hold,
  letLeave,
  clearSelection,
}: {
  note: (entries: Array<[string, RowNote]>) => void;
  /** Keeps the rows on screen (and the stream's word of them from taking them away) until released. */
  hold: (rowIds: string[]) => () => void;
  letLeave: (leaving: Leaving[], ms?: number) => void;
  clearSelection: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const words = useBulkWords();

  const decide = useCallback(
    async (action: BulkAction, calls: SelectedCall[], reason: string | undefined) => {
      setBusy(true);
      setSummary(null);
      // Until each row has its note, neither the stream's word of these very decisions nor a read takes the rows away.
      const sent = hold(calls.map((call) => callRowId(call.runId, call.toolCallId, 0)));
      try {
        let result: Awaited<ReturnType<typeof decideInBulk>> | null = null;
        try {
          result = await decideInBulk({
            action,
            calls: calls.map(({ runId, toolCallId }) => ({ runId, toolCallId })),
            ...(reason ? { reason } : {}),
          });
        } catch {
          result = null;
        }
        setBusy(false);
        if (!result) return setSummary(words.unreachable());
        if (!result.ok) return setSummary(words.refusedAll(result.error));
        clearSelection();
        const outcome = result.data;
        note(outcome.results.map((call) => [callRowId(call.runId, call.toolCallId, 0), words.rowNote(action, call)]));
        letLeave(
          outcome.results
            .filter((call) => call.status === "applied" || call.status === "already_decided")
            .map((call) => ({
              rowId: callRowId(call.runId, call.toolCallId, 0),
              runId: call.runId,
              runFinished: call.status === "applied" && call.runState === "completed",
            })),
          BULK_LINGER_MS,
        );
        setSummary(words.summary(outcome));
      } finally {
        sent();
      }
    },
    [note, hold, letLeave, clearSelection, words],
  );

  return { busy, summary, decide };
}
