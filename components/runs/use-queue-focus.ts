"use client";

/**
 * The current call of the review queue (a roving tabindex over the call rows), which calls are
 * open, and what a shortcut asked of an open call. The focus never gets lost: when the current
 * call leaves the list, the next one (or the one before) becomes current.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { RowIntent } from "./call-detail";
import type { PendingCallRow } from "./runs-table-model";
import { useQueueKeyboard } from "./use-queue-keyboard";

export function callRowElement(rowId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-call-row="${CSS.escape(rowId)}"]`);
}

interface QueueFocusOptions {
  /** The call rows shown (threads expanded), in order. */
  order: PendingCallRow[];
  canDecide: boolean;
  /** Calls kept on screen after their decision: the keyboard skips them. */
  leaving: ReadonlyMap<string, unknown>;
  toggleSelect: (row: PendingCallRow) => void;
  focusFilter: () => void;
  showHelp: () => void;
}

export function useQueueFocus({ order, canDecide, leaving, toggleSelect, focusFilter, showHelp }: QueueFocusOptions) {
  const [active, setActive] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [intent, setIntent] = useState<{ rowId: string; what: RowIntent } | null>(null);
  const previousOrder = useRef<string[]>([]);

  const focusRow = useCallback((rowId: string | null) => {
    setActive(rowId);
    if (!rowId) return;
    requestAnimationFrame(() => {
      const element = callRowElement(rowId);
      element?.focus({ preventScroll: true });
      element?.scrollIntoView({ block: "nearest" });
    });
  }, []);

  // The current call left the list: the next one still there becomes current (focused if the focus went with it).
  const ids = order.map((row) => row.id);
  const key = ids.join("\n");
  useEffect(() => {
    const now = key ? key.split("\n") : [];
    const before = previousOrder.current;
    previousOrder.current = now;
    if (!active || now.includes(active)) return;
    const at = before.indexOf(active);
    const next = [...before.slice(at + 1), ...before.slice(0, Math.max(0, at)).reverse()].find((id) => now.includes(id)) ?? null;
    const focusLost = !document.activeElement || document.activeElement === document.body;
    if (focusLost) focusRow(next);
    else setActive(next);
  }, [key, active, focusRow]);

  const toggleOpen = useCallback((rowId: string, force?: boolean) => {
    setOpen((previous) => {
      const next = new Set(previous);
      if (force ?? !next.has(rowId)) next.add(rowId);
      else next.delete(rowId);
      return next;
    });
  }, []);

  /** After a decision: the next call that still waits becomes current. */
  const moveOnFrom = useCallback(
    (rowId: string) => {
      const at = ids.indexOf(rowId);
      const next =
        ids.slice(at + 1).find((id) => !leaving.has(id)) ??
        ids
          .slice(0, at)
          .reverse()
          .find((id) => !leaving.has(id)) ??
        null;
      if (next) focusRow(next);
    },
    [ids, leaving, focusRow],
  );

  const current = order.find((row) => row.id === active);
  const ask = (what: RowIntent, when: (row: PendingCallRow) => boolean) => {
    if (!current || !canDecide || leaving.has(current.id) || !when(current)) return;
    // An open call approves at once; a closed one opens with Approve focused (the reviewer sees what they approve).
    const opened = open.has(current.id);
    toggleOpen(current.id, true);
    setIntent({ rowId: current.id, what: what === "approve" && !opened ? "focusApprove" : what });
  };

  useQueueKeyboard({
    move: (delta) => {
      const navigable = order.filter((row) => !leaving.has(row.id) || row.id === active);
      const at = navigable.findIndex((row) => row.id === active);
      const next = at === -1 ? navigable[0] : navigable[Math.min(navigable.length - 1, Math.max(0, at + delta))];
      if (next) focusRow(next.id);
    },
    toggleOpen: () => (current ? toggleOpen(current.id) : focusRow(order[0]?.id ?? null)),
    approve: () => ask("approve", (row) => row.requiresApproval),
    decline: () => ask("reason", (row) => row.requiresApproval),
    resume: () => ask("resume", (row) => !row.requiresApproval),
    toggleSelect: () => (current && canDecide ? toggleSelect(current) : undefined),
    focusFilter,
    showHelp,
    leaveFilter: () => focusRow(current?.id ?? order[0]?.id ?? null),
  });

  return {
    active: active ?? order[0]?.id ?? null,
    setActive,
    open,
    toggleOpen,
    intent,
    clearIntent: useCallback(() => setIntent(null), []),
    moveOnFrom,
  };
}
