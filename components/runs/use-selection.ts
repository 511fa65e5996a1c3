"use client";

/** Which calls are selected for a bulk decision: approval calls only, at most 100 at once. */
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import type { PendingCallRow } from "./runs-table-model";

export const BULK_LIMIT = 100;

export interface SelectedCall {
  id: string;
  runId: string;
  toolCallId: string;
  toolName: string;
}

export type NotSelectable = "inputRequest" | "noToolCallId" | "beingDecided" | "expired";

/** Why a call cannot be selected, or null when it can. Resume data is never sent in bulk. */
export function notSelectableReason(row: PendingCallRow): NotSelectable | null {
  if (!row.requiresApproval) return "inputRequest";
  if (!row.toolCallId) return "noToolCallId";
  if (row.inFlight) return "beingDecided";
  if (row.markedExpired) return "expired";
  return null;
}

/** Why a call cannot be selected, in the reader's words; null when it can. */
export function useNotSelectableText(): (row: PendingCallRow) => string | null {
  const t = useTranslations("queue.selection");
  const decision = useTranslations("decision");
  return useCallback(
    (row) => {
      const reason = notSelectableReason(row);
      if (reason === null) return null;
      if (reason === "noToolCallId") return decision("noToolCallId");
      if (reason === "beingDecided") return t("beingDecided", { reviewer: row.inFlight?.reviewer ?? "" });
      return t(reason);
    },
    [t, decision],
  );
}

/** How many calls the last selection left out for the limit, in the reader's words; null when none. */
export function useLeftOutText(): (leftOut: number | null) => string | null {
  const t = useTranslations("queue.selection");
  return useCallback((leftOut) => (leftOut ? t("limit", { limit: BULK_LIMIT, left: leftOut }) : null), [t]);
}

export function useSelection(rows: PendingCallRow[]) {
  const [selected, setSelected] = useState<ReadonlyMap<string, SelectedCall>>(() => new Map());
  /** How many calls the last selection left out for the limit (BULK_LIMIT), if any. */
  const [leftOut, setLeftOut] = useState<number | null>(null);

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
      setLeftOut(left > 0 ? left : null);
      return next;
    });
  }, []);

  const toggle = useCallback((row: PendingCallRow) => setMany([row], !selected.has(row.id)), [selected, setMany]);
  const clear = useCallback(() => {
    setSelected(new Map());
    setLeftOut(null);
  }, []);

  return { selected, leftOut, setMany, toggle, clear };
}

/** "all", "some" or "none" of the selectable calls among `calls` are selected; null when none can be. */
export function selectionState(calls: PendingCallRow[], selected: ReadonlyMap<string, SelectedCall>): "all" | "some" | "none" | null {
  const selectable = calls.filter((row) => notSelectableReason(row) === null);
  if (selectable.length === 0) return null;
  const count = selectable.filter((row) => selected.has(row.id)).length;
  return count === 0 ? "none" : count === selectable.length ? "all" : "some";
}
