"use client";

import { useFormStatus } from "react-dom";
import { Button, type ButtonProps } from "./button";

/** A form's submit button, disabled while the form's action runs. */
export function SubmitButton({ disabled, ...props }: Omit<ButtonProps, "type">) {
  const { pending } = useFormStatus();
  return <Button {...props} type="submit" disabled={disabled || pending} aria-disabled={disabled || pending} />;
}
