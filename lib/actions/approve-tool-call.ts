"use server";

import { currentReviewer } from "../auth/reviewer.ts";
import { auditInvalidRequest, decide, type DecisionOutcome } from "../runs/decisions.ts";
import { approveInput, type ApproveInput } from "../runs/validations.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function approveToolCall(input: ApproveInput): Promise<ActionResult<DecisionOutcome>> {
  const parsed = approveInput.safeParse(input);
  const reviewer = await currentReviewer();
  if (!parsed.success) {
    const refusal = invalidInput(parsed.error);
    await auditInvalidRequest("approve", input, refusal.error.message, { reviewer }).catch((error) => console.error("[audit]", error));
    return refusal;
  }
  return runAction("approveToolCall", async () => decide({ action: "approve", ...parsed.data }, { reviewer }));
}
