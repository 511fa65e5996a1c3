/**
 * POST /api/decisions's body and answer for the OpenAPI document: the very input schemas the route
 * parses with (lib/decisions, lib/suggestions, lib/rules), each with the `action` that picks it.
 * They live here, not in lib/decisions, which lib/rules and lib/suggestions import.
 */
import { z } from "zod";
import { decisionOutcomeSchema } from "../decisions/api-schemas.ts";
import { approveInput, bulkInput, declineInput, resumeInput } from "../decisions/inputs.ts";
import { ruleSchema } from "../rules/api-schemas.ts";
import { approveAndTrustInput } from "../rules/trust-input.ts";
import { suggestInput } from "../suggestions/inputs.ts";

/** The fields of an object schema with the `action` naming it: the route reads `action`, the schema the rest. */
function withAction(action: string, schema: z.ZodObject) {
  return z.object({ action: z.literal(action), ...schema.shape }).strict();
}

export const decisionBody = z
  .union([
    withAction("approve", approveInput),
    withAction("decline", declineInput),
    withAction("resume", resumeInput),
    withAction("decline_and_suggest", suggestInput),
    withAction("approve_and_trust", approveAndTrustInput),
  ])
  .meta({ id: "DecisionRequest" });

export const bulkBody = bulkInput;

export const decisionAnswerSchema = z
  .union([
    decisionOutcomeSchema,
    z
      .object({ ...decisionOutcomeSchema.shape, trustedRule: ruleSchema.nullable() })
      .meta({ id: "TrustOutcome", description: "approve_and_trust: the approval, and the rule it made (null when none was written)." }),
  ])
  .meta({ id: "DecisionAnswer" });
