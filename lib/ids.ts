/**
 * The schema of an id a request names (a run, a tool call, an agent, a filter value): a trimmed,
 * non-empty string of bounded length that the databases can store as sent (lib/safe-text.ts).
 */
import { z } from "zod";
import { ID_MAX_LENGTH, idTextProblem } from "./safe-text.ts";

export function idSchema(label: string) {
  return z
    .string({ error: `${label} must be a string` })
    .trim()
    .min(1, `${label} must not be empty`)
    .max(ID_MAX_LENGTH, `${label} is longer than ${ID_MAX_LENGTH} characters`)
    .superRefine(textCheck(label, idTextProblem));
}

/** A zod refinement reporting `problemOf(text)` (lib/safe-text.ts) as "<label> <problem>". */
export function textCheck(label: string, problemOf: (text: string) => string | undefined) {
  return (text: string, context: z.RefinementCtx) => {
    const problem = problemOf(text);
    if (problem) context.addIssue({ code: "custom", message: `${label} ${problem}` });
  };
}
