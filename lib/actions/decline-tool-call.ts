"use server";

import { decide, type DecisionOutcome } from "../runs/decisions.ts";
import { declineInput, type DeclineInput } from "../runs/validations.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function declineToolCall(input: DeclineInput): Promise<ActionResult<DecisionOutcome>> {
  const parsed = declineInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  return runAction("declineToolCall", () => decide({ action: "decline", ...parsed.data }));
}
