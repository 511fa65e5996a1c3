"use server";

import type { DecisionOutcome } from "../decisions/types.ts";
import type { SuggestInput } from "../suggestions/inputs.ts";
import type { ActionResult } from "./result.ts";
import { runSuggestion } from "./run-suggestion.ts";

/**
 * Declines an approval call, telling the model which arguments to use instead (JSON text, checked
 * against the tool's input schema); the agent's next call of that tool in that thread with exactly
 * those is approved without waiting (lib/suggestions).
 */
export async function declineAndSuggest(input: SuggestInput): Promise<ActionResult<DecisionOutcome>> {
  return runSuggestion(input);
}
