"use server";

import type { DecisionOutcome } from "../runs/decisions.ts";
import { approveInput, type ApproveInput } from "../runs/validations.ts";
import type { ActionResult } from "./result.ts";
import { runDecision } from "./run-decision.ts";

export async function approveToolCall(input: ApproveInput): Promise<ActionResult<DecisionOutcome>> {
  return runDecision("approve", approveInput, input);
}
