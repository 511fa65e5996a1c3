import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { PhoneFold } from "@/components/ui/phone-fold";

/**
 * The pages' filter bar (history, insights): a plain GET form, so the filters land in the URL, a
 * link reproduces the view, and it works without JS. Below 768 px it folds under one "Filters (n)"
 * button. Reset is a link to the page without its query.
 */
export function FilterForm({
  action,
  labels,
  count,
  children,
}: {
  action: string;
  labels: { fold: string; foldCount: string; apply: string; reset: string };
  /** How many filters are set (shown on the phone's button). */
  count: number;
  children: ReactNode;
}) {
  return (
    <PhoneFold label={labels.fold} countLabel={labels.foldCount} count={count}>
      <form method="get" action={action} className="flex flex-wrap items-end gap-3 rounded-lg border border-neutral-200 bg-white p-4">
        {children}
        <div className="flex gap-2">
          <Button type="submit">{labels.apply}</Button>
          <a
            href={action}
            className="inline-flex h-9 items-center rounded-md px-3 text-sm font-medium text-neutral-700 hover:bg-neutral-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
          >
            {labels.reset}
          </a>
        </div>
      </form>
    </PhoneFold>
  );
}

/** One labelled field of a form: the label above its control. */
export function FormField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}
