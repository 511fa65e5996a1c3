/**
 * The schema of a whole number a request carries: an expiry rule's minutes, a list's page. It
 * reads with the console's one parser (lib/numeric-settings.mjs `wholeNumberOf`): a JSON number,
 * or plain digits as a form or a URL sends them. `z.coerce.number()` would take `true` as 1,
 * `[5]` as 5, `"0x10"` as 16, `"1e3"` as 1000 and `""` as 0, and save a number nobody typed.
 */
import { z } from "zod";
import { wholeNumberOf } from "./numeric-settings.mjs";

export interface WholeNumberRules {
  min: number;
  max: number;
  /** For anything that is not a whole number (default: "<label> must be a whole number"). */
  notWhole?: string;
  tooSmall?: string;
  tooBig?: string;
}

export function wholeNumberInput(label: string, { min, max, notWhole, tooSmall, tooBig }: WholeNumberRules) {
  return z.unknown().transform((value, context): number => {
    const number = wholeNumberOf(value);
    const problem =
      number === undefined
        ? (notWhole ?? `${label} must be a whole number`)
        : number < min
          ? (tooSmall ?? `${label} must be at least ${min}`)
          : number > max
            ? (tooBig ?? `${label} must be at most ${max}`)
            : undefined;
    if (problem === undefined) return number!;
    context.addIssue({ code: "custom", message: problem, input: value });
    return z.NEVER;
  });
}
