"use server";

import type { ApproveAndTrustInput } from "../rules/trust-input.ts";
import type { TrustOutcome } from "../rules/dto.ts";
import type { ActionResult } from "./result.ts";
import { runTrust } from "./run-trust.ts";

/**
 * Approves an approval call and makes a rule that approves the same calls (agent, tool, resource,
 * the ticked arguments' values) until it ends: in 15 minutes, an hour, or at midnight (lib/rules/trust.ts).
 */
export async function approveAndTrust(input: ApproveAndTrustInput): Promise<ActionResult<TrustOutcome>> {
  return runTrust(input);
}
