"use server";

import type { BulkOutcome } from "../decisions/types.ts";
import type { BulkInput } from "../decisions/inputs.ts";
import type { ActionResult } from "./result.ts";
import { runBulkDecision } from "./run-bulk-decision.ts";

/**
 * Approve selected / Decline selected: at most 100 calls, one reason for all (decline only). Each
 * call is decided on its own; the result names what became of each, in request order.
 */
export async function decideInBulk(input: BulkInput): Promise<ActionResult<BulkOutcome>> {
  return runBulkDecision(input);
}
