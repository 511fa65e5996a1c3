"use client";

/**
 * Approve selected / Decline selected: one bulk request (decideInBulk, the same exactly-once path as
 * a single decision, call by call), then what became of each call in its row and in one line.
 */
import { useCallback, useState } from "react";
import { decideInBulk } from "@/lib/actions/decide-in-bulk";
import { approvalProgressText, type BulkCallResult, type BulkOutcome } from "@/lib/decisions/types";
import { formatTimestamp } from "@/components/time";
import type { BulkAction } from "./bulk-bar";
import { callRowId } from "./runs-table-lingering";
import type { Leaving, RowNote } from "./use-lingering";
import type { SelectedCall } from "./use-selection";

/** Long enough to read what became of each call before the decided ones leave. */
const BULK_LINGER_MS = 4_000;

const DONE: Record<BulkAction, string> = { approve: "Approved", decline: "Declined" };

function who(result: BulkCallResult): string {
  const by = result.decidedBy ?? "another reviewer or process";
  return result.decidedAt ? `${by} at ${formatTimestamp(result.decidedAt)}` : by;
}

export function bulkRowNote(action: BulkAction, result: BulkCallResult): RowNote {
  switch (result.status) {
    case "applied":
      return {
        tone: "success",
        text: `✓ ${DONE[action]} — the agent continued${result.runState === "waiting-again" ? " and stopped again for another call." : "."}`,
      };
    case "awaiting_approvals":
      return {
        tone: "success",
        text: `✓ Your approval counts: ${result.approvals ? approvalProgressText(result.approvals) : "more approvals needed"}. It waits for another reviewer.`,
      };
    case "already_decided":
      return { tone: "warning", text: `Already decided by ${who(result)}` };
    case "refused":
      return { tone: "error", text: `Refused: ${result.message ?? "this call cannot be decided in bulk."}` };
    case "failed":
      return { tone: "error", text: `Failed: ${result.message ?? "the agent could not carry it out."}` };
  }
}

/** "9 applied, 1 already decided by alice@… at …". */
export function bulkSummary(outcome: BulkOutcome): string {
  const of = (status: BulkCallResult["status"]) => outcome.results.filter((result) => result.status === status);
  const parts: string[] = [];
  const applied = of("applied").length;
  if (applied > 0 || outcome.results.length === 0) parts.push(`${applied} applied`);
  const waiting = of("awaiting_approvals").length;
  if (waiting) parts.push(`${waiting} approved by you, waiting for more approvals`);
  const already = of("already_decided");
  if (already.length === 1) parts.push(`1 already decided by ${who(already[0]!)}`);
  else if (already.length > 1)
    parts.push(`${already.length} already decided (by ${[...new Set(already.map((r) => r.decidedBy ?? "another process"))].join(", ")})`);
  if (of("refused").length) parts.push(`${of("refused").length} refused`);
  if (of("failed").length) parts.push(`${of("failed").length} failed`);
  return `${parts.join(", ")}.`;
}

export function useBulkDecision({
  note,
  letLeave,
  clearSelection,
}: {
  note: (entries: Array<[string, RowNote]>) => void;
  letLeave: (leaving: Leaving[], ms?: number) => void;
  clearSelection: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);

  const decide = useCallback(
    async (action: BulkAction, calls: SelectedCall[], reason: string | undefined) => {
      setBusy(true);
      setSummary(null);
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
      if (!result) return setSummary("Nothing was decided: the server could not be reached. Check the connection and try again.");
      if (!result.ok) return setSummary(`Nothing was decided: ${result.error.message}`);
      clearSelection();
      const outcome = result.data;
      note(outcome.results.map((call) => [callRowId(call.runId, call.toolCallId, 0), bulkRowNote(action, call)]));
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
      setSummary(bulkSummary(outcome));
    },
    [note, letLeave, clearSelection],
  );

  return { busy, summary, decide };
}
