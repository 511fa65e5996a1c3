import { forwardRef, type SelectHTMLAttributes } from "react";
import { cn } from "./cn";
import { fieldClasses } from "./input";

/**
 * A native <select> styled like the other fields: keyboard and screen-reader behaviour come for free.
 * It fills its wrapper, so that where a form's column stretches the wrapper the chevron stays on it.
 */
export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, children, ...props },
  ref,
) {
  return (
    <span className="relative inline-flex">
      <select ref={ref} className={cn(fieldClasses, "h-9 w-full appearance-none pl-3 pr-8", className)} {...props}>
        {children}
      </select>
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="pointer-events-none absolute right-2.5 top-1/2 h-3.5 w-3.5 -translate-y-1/2 text-neutral-500"
      >
        <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
});
