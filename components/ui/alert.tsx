import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";

export type AlertVariant = "default" | "destructive" | "warning" | "success";

const variants: Record<AlertVariant, string> = {
  default: "border-neutral-200 bg-white text-neutral-900",
  destructive: "border-red-200 bg-red-50 text-red-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
};

/** A boxed message. Pass `role="alert"` (errors) or `role="status"` (feedback) where it must be announced. */
export function Alert({
  variant = "default",
  title,
  className,
  children,
  ...props
}: HTMLAttributes<HTMLDivElement> & { variant?: AlertVariant; title?: ReactNode }) {
  return (
    <div className={cn("rounded-lg border px-4 py-3 text-sm", variants[variant], className)} {...props}>
      {title ? <p className="font-medium">{title}</p> : null}
      {children ? <div className={cn(title ? "mt-1" : undefined, "text-[13px] leading-relaxed")}>{children}</div> : null}
    </div>
  );
}
