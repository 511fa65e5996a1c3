"use server";

import { decide, type DecisionOutcome } from "../runs/decisions.ts";
import { resumeInput, type ResumeInput } from "../runs/validations.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

/** `resumeData` is the JSON text the reviewer typed; it is parsed and checked here, not trusted. */
export async function resumeToolCall(input: ResumeInput): Promise<ActionResult<DecisionOutcome>> {
  const parsed = resumeInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  return runAction("resumeToolCall", () => decide({ action: "resume", ...parsed.data }));
}
