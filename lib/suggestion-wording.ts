/**
 * Decline and suggest, in words a model can act on: the decline's reason names the tool and ends
 * with the suggested arguments as JSON after a fixed label, so a model (or the demo's scripted
 * one, lib/mastra/demo/follow-suggestion.ts) can call the tool again with exactly those. Outside
 * lib/'s folders on purpose: the demo agents read it, and lib/suggestions (which decides) depends
 * on the agents. No imports: safe anywhere.
 */

/** What precedes the suggested arguments in a decline's reason. */
export const SUGGESTED_ARGUMENTS_LABEL = "Suggested arguments (JSON): ";

/** JSON with every object's keys sorted: two argument sets are the same suggestion when these are equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** The reason a decline-and-suggest gives the model: the reviewer's note, what to do, the arguments last. */
export function suggestionReason(toolName: string, args: unknown, note?: string): string {
  const said = note?.trim() ? `${note.trim().replace(/[.!?]?$/, ".")} ` : "";
  return (
    `${said}A reviewer declined this call of ${toolName} and suggests different arguments: call ${toolName} again ` +
    `with exactly the arguments below instead (such a call is approved without waiting for a person; ` +
    `any other arguments wait for a reviewer). ${SUGGESTED_ARGUMENTS_LABEL}${canonicalJson(args)}`
  );
}

/**
 * The suggested arguments a decline's reason carries, or null. The JSON runs to the end of the
 * reason; a note that happens to contain the label too is skipped (what follows it is not JSON).
 */
export function suggestedArgumentsIn(reason: string): Record<string, unknown> | null {
  for (let at = reason.indexOf(SUGGESTED_ARGUMENTS_LABEL); at >= 0; at = reason.indexOf(SUGGESTED_ARGUMENTS_LABEL, at + 1)) {
    try {
      const value: unknown = JSON.parse(reason.slice(at + SUGGESTED_ARGUMENTS_LABEL.length));
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not the label we wrote: look further
    }
  }
  return null;
}
