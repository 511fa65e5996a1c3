"use server";

import type { DecisionOutcome } from "../decisions/types.ts";
import { approveInput, type ApproveInput } from "../decisions/inputs.ts";
import type { ActionResult } from "./result.ts";
import { runDecision } from "./run-decision.ts";

export async function approveToolCall(input: ApproveInput): Promise<ActionResult<DecisionOutcome>> {
  return runDecision("approve", approveInput, input);
}
