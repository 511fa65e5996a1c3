/**
 * Decline and suggest's input, checked on the server for every request (server action and JSON API
 * alike): the call, an optional note (a decline's reason), and the suggested arguments as JSON text,
 * exactly what the reviewer typed: it must parse to an object, within the size and depth limits,
 * without prototype-polluting keys. Whether it fits the tool is checked against the tool's own input
 * schema afterwards (suggest.ts).
 */
import { z } from "zod";
import { declineInput } from "../decisions/inputs.ts";
import { jsonSyntaxMessage } from "../decisions/issue-english.ts";
import { LIMITS } from "../decisions/limits.ts";

/** The suggested arguments as JSON text, in bytes: they travel to the model inside the decline's reason. */
export const SUGGESTION_ARGS_BYTES = 16 * 1024;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const argsText = z
  .string({ error: "args must be JSON text" })
  .refine((text) => new TextEncoder().encode(text).length <= SUGGESTION_ARGS_BYTES, {
    message: `args are larger than ${SUGGESTION_ARGS_BYTES / 1024} KiB`,
    abort: true,
  })
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: "custom", message: jsonSyntaxMessage(text, "subjectArguments") ?? "The arguments are not valid JSON" });
      return z.NEVER;
    }
  })
  .superRefine((value, context) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      context.addIssue({ code: "custom", message: "args must be a JSON object: a tool's arguments, by name" });
      return;
    }
    const problem = shapeProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .transform((value) => value as Record<string, unknown>);

function shapeProblem(value: unknown, depth = 0, path = "args"): string | undefined {
  if (depth > LIMITS.resumeDataDepth) return `args are nested deeper than ${LIMITS.resumeDataDepth} levels`;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) return `${path} has a forbidden key "${key}"`;
    const problem = shapeProblem(child, depth + 1, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`);
    if (problem) return problem;
  }
  return undefined;
}

/** { runId, toolCallId, agentId?, reason? (a note for the model), args (JSON text) }. */
export const suggestInput = declineInput.extend({ args: argsText }).strict();

export type SuggestInput = z.input<typeof suggestInput>;
export type SuggestFields = z.output<typeof suggestInput>;
