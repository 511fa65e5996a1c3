"use server";

import { decide, type DecisionOutcome } from "../runs/decisions.ts";
import { approveInput, type ApproveInput } from "../runs/validations.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function approveToolCall(input: ApproveInput): Promise<ActionResult<DecisionOutcome>> {
  const parsed = approveInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  return runAction("approveToolCall", () => decide({ action: "approve", ...parsed.data }));
}
