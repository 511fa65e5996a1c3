"use server";

import type { DecisionOutcome } from "../decisions/types.ts";
import { resumeInput, type ResumeInput } from "../decisions/inputs.ts";
import type { ActionResult } from "./result.ts";
import { runDecision } from "./run-decision.ts";

/** `resumeData` is the JSON text the reviewer typed; it is parsed and checked here, not trusted. */
export async function resumeToolCall(input: ResumeInput): Promise<ActionResult<DecisionOutcome>> {
  return runDecision("resume", resumeInput, input);
}
