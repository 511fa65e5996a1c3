import { forwardRef, type TextareaHTMLAttributes } from "react";
import { cn } from "./cn";
import { fieldClasses } from "./input";

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, ...props },
  ref,
) {
  return <textarea ref={ref} className={cn(fieldClasses, "block w-full px-3 py-2", className)} {...props} />;
});
