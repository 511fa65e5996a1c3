"use client";

/**
 * The bar that appears when calls are selected: how many, Approve selected / Decline selected (one
 * optional reason for all), Clear; a confirmation names how many calls of which tools first.
 */
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { LIMITS } from "@/lib/decisions/limits";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { SelectedCall } from "./use-selection";

export type BulkAction = "approve" | "decline";

/** How many calls of each tool, the most frequent tool first: [["issueRefund", 7], ["sendEmail", 3]]. */
export function toolCounts(calls: SelectedCall[]): Array<[tool: string, count: number]> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.toolName, (counts.get(call.toolName) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

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
  const t = useTranslations("queue.bulk");
  const common = useTranslations("common");
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
  // "7 × issueRefund, 3 × sendEmail".
  const tally = toolCounts(asked)
    .map(([tool, count]) => t("tally", { tool, count }))
    .join(", ");
  const trimmedReason = reason.trim();

  return (
    <div
      role="region"
      aria-label={t("region")}
      className="sticky bottom-3 z-20 flex flex-col gap-2 rounded-xl border border-neutral-300 bg-white/95 px-4 py-3 shadow-lg backdrop-blur"
    >
      {count > 0 ? (
        <div className="flex flex-wrap items-end gap-3">
          <p className="self-center text-sm font-semibold tabular-nums text-neutral-900">{t("selected", { count })}</p>
          <div className="flex min-w-[16rem] flex-1 flex-col gap-1">
            <Label htmlFor={reasonId}>{t("reason")}</Label>
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
            {busy ? t("deciding") : t("approveSelected")}
          </Button>
          <Button
            size="sm"
            variant="outline"
            className="text-red-700 hover:bg-red-50 hover:text-red-800"
            onClick={() => ask("decline")}
            disabled={busy}
          >
            {t("declineSelected")}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear} disabled={busy}>
            {t("clear")}
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
        title={confirming ? t("confirmTitle", { action: confirming, count: asked.length, tools: tally }) : ""}
        description={
          confirming === "approve"
            ? t("approveBody")
            : trimmedReason
              ? t("declineBodyReason", { reason: trimmedReason })
              : t("declineBodyNoReason")
        }
      >
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => setConfirming(null)}>
            {common("cancel")}
          </Button>
          <Button
            autoFocus
            disabled={!onDecide}
            title={onDecide ? undefined : t("unavailable")}
            variant={confirming === "decline" ? "destructive" : "default"}
            onClick={() => {
              if (!onDecide) return;
              const action = confirming!;
              setConfirming(null);
              onDecide(action, asked, action === "decline" ? reason.trim() || undefined : undefined);
              setReason("");
            }}
          >
            {confirming ? t("confirm", { action: confirming, count: asked.length }) : ""}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
