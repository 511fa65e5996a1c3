"use client";

/**
 * The bar that appears when calls are selected: how many, Approve selected / Decline selected (one
 * optional reason for all), Clear; a confirmation names how many calls of which tools first.
 */
import { useId, useState } from "react";
import { LIMITS } from "@/lib/decisions/limits";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { SelectedCall } from "./use-selection";

export type BulkAction = "approve" | "decline";

/** "7 × issueRefund, 3 × sendEmail", the most frequent tool first. */
export function toolTally(calls: SelectedCall[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.toolName, (counts.get(call.toolName) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([tool, count]) => `${count} × ${tool}`)
    .join(", ");
}

const VERB: Record<BulkAction, string> = { approve: "Approve", decline: "Decline" };

interface BulkBarProps {
  selected: ReadonlyMap<string, SelectedCall>;
  /** Why part of a selection was left out (the limit), if it was. */
  notice: string | null;
  /** What became of the last bulk request, in one line. */
  summary: string | null;
  busy: boolean;
  onClear: () => void;
  /** Sends the bulk request; absent while this console has no bulk decisions. */
  onDecide?: (action: BulkAction, calls: SelectedCall[], reason: string | undefined) => void;
}

export function BulkBar({ selected, notice, summary, busy, onClear, onDecide }: BulkBarProps) {
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState<BulkAction | null>(null);
  // What the dialog asks about is what gets sent, even if the list refreshes meanwhile.
  const [asked, setAsked] = useState<SelectedCall[]>([]);
  const count = selected.size;
  const ask = (action: BulkAction) => {
    setAsked([...selected.values()]);
    setConfirming(action);
  };
  if (count === 0 && !summary && !notice) return null;
  const plural = (n: number) => `${n} call${n === 1 ? "" : "s"}`;

  return (
    <div
      role="region"
      aria-label="Bulk decision"
      className="sticky bottom-3 z-20 flex flex-col gap-2 rounded-xl border border-neutral-300 bg-white/95 px-4 py-3 shadow-lg backdrop-blur"
    >
      {count > 0 ? (
        <div className="flex flex-wrap items-end gap-3">
          <p className="self-center text-sm font-semibold tabular-nums text-neutral-900">{count} selected</p>
          <div className="flex min-w-[16rem] flex-1 flex-col gap-1">
            <Label htmlFor={reasonId}>Reason for declining (optional, one for all)</Label>
            <Input
              id={reasonId}
              value={reason}
              maxLength={LIMITS.reasonLength}
              onChange={(event) => setReason(event.target.value)}
              disabled={busy}
              className="h-8"
            />
          </div>
          <Button size="sm" onClick={() => ask("approve")} disabled={busy} aria-haspopup="dialog">
            {busy ? "Deciding…" : "Approve selected"}
          </Button>
          <Button
            size="sm"
            variant="outline"
            className="text-red-700 hover:bg-red-50 hover:text-red-800"
            onClick={() => ask("decline")}
            disabled={busy}
          >
            Decline selected
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear} disabled={busy}>
            Clear
          </Button>
        </div>
      ) : null}
      {notice ? <p className="text-xs text-amber-900">{notice}</p> : null}
      <p role="status" className="text-sm text-neutral-800 empty:hidden [overflow-wrap:anywhere]" data-testid="bulk-summary">
        {summary ?? ""}
      </p>
      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? `${VERB[confirming]} ${plural(asked.length)}: ${toolTally(asked)}?` : ""}
        description={
          confirming === "approve"
            ? "Each call's tool runs once approved. Calls somebody decided first are left as they are and reported."
            : `The agents are told you declined${reason.trim() ? ` with the reason: “${reason.trim()}”` : ", with no reason"}. No tool runs.`
        }
      >
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button
            autoFocus
            disabled={!onDecide}
            title={onDecide ? undefined : "Bulk decisions are not available on this server yet."}
            variant={confirming === "decline" ? "destructive" : "default"}
            onClick={() => {
              if (!onDecide) return;
              const action = confirming!;
              setConfirming(null);
              onDecide(action, asked, action === "decline" ? reason.trim() || undefined : undefined);
              setReason("");
            }}
          >
            {confirming ? `${VERB[confirming]} ${plural(asked.length)}` : ""}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
