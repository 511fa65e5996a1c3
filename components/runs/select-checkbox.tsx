"use client";

import { useEffect, useRef } from "react";

/** A checkbox that can also show "some selected" (indeterminate). Bulk selection is desktop-only: hidden below 768 px. */
export function SelectCheckbox({
  state,
  label,
  title,
  onChange,
  keyShortcut,
}: {
  /** null: nothing here can be selected (the checkbox is disabled and its title says why). */
  state: "all" | "some" | "none" | null;
  label: string;
  title?: string;
  onChange: (checked: boolean) => void;
  keyShortcut?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === "some";
  }, [state]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      title={title ?? label}
      aria-keyshortcuts={keyShortcut}
      checked={state === "all"}
      aria-checked={state === "some" ? "mixed" : undefined}
      disabled={state === null}
      onChange={(event) => onChange(state === "some" ? true : event.target.checked)}
      className="h-4 w-4 cursor-pointer accent-neutral-900 max-md:hidden disabled:cursor-not-allowed disabled:opacity-40"
    />
  );
}
