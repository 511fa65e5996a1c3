/**
 * What a model does with a reviewer's "decline and suggest" (lib/suggestions): the decline's reason
 * names the arguments to use instead, so the agent calls the same tool again with exactly those.
 * The scripted demo agents do it here; a real model reads the same sentence (lib/suggestion-wording.ts).
 */
import { suggestedArgumentsIn } from "../../suggestion-wording.ts";
import type { ScriptContext, ScriptedTurn } from "./scripted-model.ts";

type Playbook = (context: ScriptContext) => ScriptedTurn;
type ToolResult = ScriptContext["toolResults"][number];

/** The arguments a declined call's result suggests, or null (a tool's own result never does). */
function suggestionIn(result: ToolResult | undefined): Record<string, unknown> | null {
  const output = result?.output as { type?: string; value?: unknown } | undefined;
  if (!output || output.type === "json" || typeof output.value !== "string") return null;
  return suggestedArgumentsIn(output.value);
}

/**
 * `playbook`, except that a call declined with a suggestion is made again with the suggested
 * arguments; once that call has answered, the playbook reports as if the suggestion's call were the
 * only one (the declined attempt is left out of its report).
 */
export function followSuggestion(playbook: Playbook): Playbook {
  return (context) => {
    const last = context.toolResults.at(-1);
    const suggested = suggestionIn(last);
    if (last && suggested) return { type: "tool-call", toolName: last.toolName, args: suggested };
    const followed = context.toolResults.filter((result) => !suggestionIn(result));
    return playbook(followed.length === context.toolResults.length ? context : { ...context, toolResults: followed });
  };
}
