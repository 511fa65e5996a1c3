"use server";

import type { DecisionOutcome } from "../decisions/types.ts";
import { declineInput, type DeclineInput } from "../decisions/inputs.ts";
import type { ActionResult } from "./result.ts";
import { runDecision } from "./run-decision.ts";

/** The reason, if any, is passed to the agent and kept in the history. */
export async function declineToolCall(input: DeclineInput): Promise<ActionResult<DecisionOutcome>> {
  return runDecision("decline", declineInput, input);
}
