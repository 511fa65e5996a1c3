"use client";

/** One pending call of the queue: its row (focusable, selectable, opens in place) and, when open, the call itself. */
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import type { RowIntent, Settled } from "./call-detail";
import type { PendingCallRow } from "./runs-table-model";
import { SelectCheckbox } from "./select-checkbox";
import { useNotSelectableText } from "./use-selection";
import type { RowNote } from "./use-lingering";

// The decision UI (JSON viewer, forms, the resume editor's schema checks) loads when a call first
// opens: the queue's first page does not ship it (bench/results.md, client JS).
const CallDetail = dynamic(() => import("./call-detail").then((module) => module.CallDetail), {
  ssr: false,
  loading: () => <LoadingCall />,
});

function LoadingCall() {
  const t = useTranslations("queue.row");
  return <p className="px-4 py-3 text-sm text-neutral-500">{t("loading")}</p>;
}

interface CallRowProps {
  call: PendingCallRow;
  /** The row's other cells (the table's columns). */
  cells: ReactNode;
  colSpan: number;
  active: boolean;
  open: boolean;
  leaving: boolean;
  canDecide: boolean;
  selected: boolean;
  note?: RowNote;
  intent: RowIntent | null;
  onActivate: () => void;
  onToggleOpen: () => void;
  onSelect: (checked: boolean) => void;
  onIntentDone: () => void;
  onSettled: (settled: Settled) => void;
  onSent: () => () => void;
}

const NOTE_TONES: Record<RowNote["tone"], string> = {
  success: "text-emerald-800",
  warning: "text-amber-900",
  error: "text-red-800",
};

export function CallRow({ call, cells, colSpan, active, open, leaving, canDecide, selected, note, intent, ...on }: CallRowProps) {
  const detailId = `call-detail-${call.id}`;
  const t = useTranslations("queue.row");
  const unselectable = useNotSelectableText()(call);
  const named = { tool: call.toolName, run: call.runId.slice(0, 8) };
  return (
    <>
      <tr
        data-call-row={call.id}
        tabIndex={active ? 0 : -1}
        aria-current={active ? "true" : undefined}
        onFocus={on.onActivate}
        className={cn(
          "border-b border-neutral-200 outline-none transition-colors hover:bg-neutral-50",
          // Below 768 px the row is a card: the open button at its left, the cells flowing beside it.
          "max-md:relative max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-1 max-md:py-2 max-md:pl-12 max-md:pr-1",
          active && "bg-sky-50/70 shadow-[inset_3px_0_0_0_#0369a1] hover:bg-sky-50",
          "focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-700",
          leaving && "opacity-60",
        )}
      >
        <td className="py-2 pl-3 pr-0 align-middle max-md:absolute max-md:left-0 max-md:top-1.5 max-md:p-0">
          <span className="flex items-center gap-1.5">
            {canDecide ? (
              <SelectCheckbox
                state={unselectable ? null : selected ? "all" : "none"}
                label={t("select", named)}
                title={unselectable ?? undefined}
                keyShortcut="X"
                onChange={on.onSelect}
              />
            ) : null}
            <button
              type="button"
              onClick={on.onToggleOpen}
              aria-expanded={open}
              aria-controls={open ? detailId : undefined}
              aria-label={t(open ? "close" : "open", named)}
              aria-keyshortcuts="Enter O"
              className="inline-flex h-7 w-7 items-center justify-center rounded-md max-md:h-11 max-md:w-11 text-neutral-600 hover:bg-neutral-200/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
            >
              <svg aria-hidden="true" viewBox="0 0 16 16" className={cn("h-3.5 w-3.5 transition-transform", open && "rotate-90")}>
                <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </button>
          </span>
        </td>
        {cells}
      </tr>
      {note ? (
        <tr className="border-b border-neutral-100 max-md:block">
          <td
            colSpan={colSpan}
            className={cn("py-1.5 pl-16 pr-3 max-md:block max-md:pl-3 text-sm font-medium [overflow-wrap:anywhere]", NOTE_TONES[note.tone])}
          >
            <span data-testid="call-result" role="status">
              {note.text}
            </span>
          </td>
        </tr>
      ) : null}
      {open ? (
        <tr id={detailId} onFocus={on.onActivate} className="border-b border-neutral-200 bg-neutral-50/50 max-md:block">
          <td colSpan={colSpan} className="px-4 py-3 pl-16 max-md:block max-md:pl-3 max-md:pr-3">
            <CallDetail
              row={call}
              canDecide={canDecide}
              intent={intent}
              onIntentDone={on.onIntentDone}
              onSettled={on.onSettled}
              onSent={on.onSent}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}
