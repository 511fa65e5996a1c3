/**
 * What POST /api/decisions and /api/decisions/bulk take and answer, as zod schemas for the OpenAPI
 * document (lib/openapi). The bodies are the very input schemas the routes parse with, each with
 * the `action` that picks it; the answers are types.ts's shapes.
 */
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";
import { ruleSchema } from "../rules/api-schemas.ts";
import { approveAndTrustInput } from "../rules/trust-input.ts";
import { suggestInput } from "../suggestions/inputs.ts";
import { approveInput, bulkInput, declineInput, resumeInput } from "./inputs.ts";

const ACTIONS = ["approve", "decline", "resume", "expire"] as const;

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

export const approvalProgressSchema = z
  .object({ required: z.number().int(), approvals: z.array(z.object({ reviewer: z.string(), approvedAt: z.string() })) })
  .meta({ id: "ApprovalProgress", description: "A call under a \"Require N approvals\" rule: its approvals so far." });

const runState = z.enum(["completed", "waiting-again", "awaiting-approvals"]);

const outcomeFields = {
  action: z.enum(ACTIONS),
  runId: z.string(),
  toolCallId: z.string(),
  agentId: z.string(),
  answer: z.string().meta({ description: "What the agent said after the decision." }),
  runState,
  approvals: approvalProgressSchema.optional(),
};

export const decisionOutcomeSchema = z
  .union([
    z.object(outcomeFields).meta({ id: "DecisionOutcome" }),
    z
      .object({ ...outcomeFields, trustedRule: ruleSchema.nullable() })
      .meta({ id: "TrustOutcome", description: "approve_and_trust: the approval, and the rule it made (null when none was written)." }),
  ])
  .meta({ id: "DecisionAnswer" });

const bulkStatus = z.enum(["applied", "awaiting_approvals", "already_decided", "refused", "failed"]);

export const bulkOutcomeSchema = z
  .object({
    batchId: z.string(),
    action: z.enum(["approve", "decline"]),
    results: z.array(
      z.object({
        runId: z.string(),
        toolCallId: z.string(),
        toolName: z.string().optional(),
        status: bulkStatus,
        code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).optional(),
        message: z.string().optional(),
        decidedBy: z.string().optional(),
        decidedAt: z.string().optional(),
        answer: z.string().optional(),
        runState: runState.optional(),
        approvals: approvalProgressSchema.optional(),
      }),
    ),
    counts: z.object(Object.fromEntries(bulkStatus.options.map((status) => [status, z.number().int()])) as Record<z.infer<typeof bulkStatus>, z.ZodNumber>),
  })
  .meta({ id: "BulkOutcome" });
