import { forwardRef, type InputHTMLAttributes } from "react";
import { cn } from "./cn";

export const fieldClasses =
  "rounded-md border border-neutral-300 bg-white text-sm text-neutral-900 shadow-sm placeholder:text-neutral-400 " +
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 focus-visible:ring-offset-1 " +
  "disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-red-500";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, type = "text", ...props },
  ref,
) {
  return <input ref={ref} type={type} className={cn(fieldClasses, "h-9 px-3", className)} {...props} />;
});
