"use server";

import { currentReviewer } from "../auth/reviewer.ts";
import { auditInvalidRequest, decide, type DecisionOutcome } from "../runs/decisions.ts";
import { resumeInput, type ResumeInput } from "../runs/validations.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

/** `resumeData` is the JSON text the reviewer typed; it is parsed and checked here, not trusted. */
export async function resumeToolCall(input: ResumeInput): Promise<ActionResult<DecisionOutcome>> {
  const parsed = resumeInput.safeParse(input);
  const reviewer = await currentReviewer();
  if (!parsed.success) {
    const refusal = invalidInput(parsed.error);
    await auditInvalidRequest("resume", input, refusal.error.message, { reviewer }).catch((error) => console.error("[audit]", error));
    return refusal;
  }
  return runAction("resumeToolCall", async () => decide({ action: "resume", ...parsed.data }, { reviewer }));
}
