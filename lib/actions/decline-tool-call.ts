"use server";

import { currentReviewer } from "../auth/reviewer.ts";
import { auditInvalidRequest, decide, type DecisionOutcome } from "../runs/decisions.ts";
import { declineInput, type DeclineInput } from "../runs/validations.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function declineToolCall(input: DeclineInput): Promise<ActionResult<DecisionOutcome>> {
  const parsed = declineInput.safeParse(input);
  const reviewer = await currentReviewer();
  if (!parsed.success) {
    const refusal = invalidInput(parsed.error);
    await auditInvalidRequest("decline", input, refusal.error.message, { reviewer }).catch((error) => console.error("[audit]", error));
    return refusal;
  }
  return runAction("declineToolCall", async () => decide({ action: "decline", ...parsed.data }, { reviewer }));
}
