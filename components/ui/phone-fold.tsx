"use client";

/**
 * Below 768 px, `children` fold under one button that says how many of them are set, e.g.
 * "Filters (2)" (a disclosure: aria-expanded, aria-controls). From 768 px up the button is hidden
 * and the children always show, as they did before.
 */
import { useId, useState, type ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";
import { THUMB_TARGET_CLASSES } from "./thumb-target";

/** `countLabel` is the label with the count, in the reader's language ("Filters (2)"). */
export function PhoneFold({
  label,
  countLabel,
  count,
  children,
}: {
  label: string;
  countLabel?: string;
  count: number;
  children: ReactNode;
}) {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outline"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className={cn("self-start md:hidden", THUMB_TARGET_CLASSES)}
      >
        {count > 0 ? (countLabel ?? `${label} (${count})`) : label}
      </Button>
      <div id={panelId} className={cn(!open && "max-md:hidden")}>
        {children}
      </div>
    </>
  );
}
