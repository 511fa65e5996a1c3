import type { HTMLAttributes } from "react";
import { cn } from "./cn";

export type BadgeVariant = "default" | "secondary" | "outline" | "amber" | "blue" | "red";

const variants: Record<BadgeVariant, string> = {
  default: "border-transparent bg-neutral-900 text-white",
  secondary: "border-transparent bg-neutral-100 text-neutral-800",
  outline: "border-neutral-300 text-neutral-700",
  amber: "border-amber-200 bg-amber-50 text-amber-800",
  blue: "border-sky-200 bg-sky-50 text-sky-800",
  red: "border-red-200 bg-red-50 text-red-800",
};

/** `wraps`: a badge of names or times breaks onto more lines rather than spill out of a narrow cell onto the next one. */
export function Badge({
  className,
  variant = "default",
  wraps = false,
  ...props
}: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant; wraps?: boolean }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-md border px-2 py-0.5 text-xs font-medium",
        wraps ? "whitespace-normal [overflow-wrap:anywhere]" : "whitespace-nowrap",
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
