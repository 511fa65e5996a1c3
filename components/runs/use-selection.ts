"use client";

/** Which calls are selected for a bulk decision: approval calls only, at most 100 at once. */
import { useCallback, useEffect, useState } from "react";
import type { PendingCallRow } from "./runs-table-model";

export const BULK_LIMIT = 100;

export interface SelectedCall {
  id: string;
  runId: string;
  toolCallId: string;
  toolName: string;
}

/** Why a call cannot be selected, or null when it can. Resume data is never sent in bulk. */
export function notSelectableReason(row: PendingCallRow): string | null {
  if (!row.requiresApproval) return "Input requests need their own resume data: they cannot be decided in bulk.";
  if (!row.toolCallId) return "This call has no tool call id, so it cannot be decided from the console.";
  if (row.inFlight) return `Being decided by ${row.inFlight.reviewer}.`;
  if (row.markedExpired) return "This call expired: it can no longer be decided.";
  return null;
}

export function useSelection(rows: PendingCallRow[]) {
  const [selected, setSelected] = useState<ReadonlyMap<string, SelectedCall>>(() => new Map());
  const [notice, setNotice] = useState<string | null>(null);

  // A selected call that left the list (decided elsewhere, another page) leaves the selection.
  useEffect(() => {
    setSelected((previous) => {
      const shown = new Map(rows.map((row) => [row.id, row]));
      const kept = [...previous].filter(([id]) => {
        const row = shown.get(id);
        return row !== undefined && notSelectableReason(row) === null;
      });
      return kept.length === previous.size ? previous : new Map(kept);
    });
  }, [rows]);

  /** Selects (or unselects) these calls, up to the limit; unselectable ones are skipped. */
  const setMany = useCallback((calls: PendingCallRow[], checked: boolean) => {
    setSelected((previous) => {
      const next = new Map(previous);
      let left = 0;
      for (const row of calls) {
        if (!checked) next.delete(row.id);
        else if (next.has(row.id) || notSelectableReason(row) !== null) continue;
        else if (next.size >= BULK_LIMIT) left++;
        else next.set(row.id, { id: row.id, runId: row.runId, toolCallId: row.toolCallId!, toolName: row.toolName });
      }
      setNotice(
        left > 0
          ? `At most ${BULK_LIMIT} calls can be decided at once: ${left} call${left === 1 ? " was" : "s were"} left unselected.`
          : null,
      );
      return next;
    });
  }, []);

  const toggle = useCallback((row: PendingCallRow) => setMany([row], !selected.has(row.id)), [selected, setMany]);
  const clear = useCallback(() => {
    setSelected(new Map());
    setNotice(null);
  }, []);

  return { selected, notice, setMany, toggle, clear };
}

/** "all", "some" or "none" of the selectable calls among `calls` are selected; null when none can be. */
export function selectionState(calls: PendingCallRow[], selected: ReadonlyMap<string, SelectedCall>): "all" | "some" | "none" | null {
  const selectable = calls.filter((row) => notSelectableReason(row) === null);
  if (selectable.length === 0) return null;
  const count = selectable.filter((row) => selected.has(row.id)).length;
  return count === 0 ? "none" : count === selectable.length ? "all" : "some";
}
