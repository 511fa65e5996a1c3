/**
 * What POST /api/decisions and /api/decisions/bulk answer (types.ts's shapes), as zod schemas for
 * the OpenAPI document (lib/openapi; the bodies are in lib/openapi/decision-schemas.ts).
 */
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";

const ACTIONS = ["approve", "decline", "resume", "expire"] as const;

export const approvalProgressSchema = z
  .object({ required: z.number().int(), approvals: z.array(z.object({ reviewer: z.string(), approvedAt: z.string() })) })
  .meta({ id: "ApprovalProgress", description: 'A call under a "Require N approvals" rule: its approvals so far.' });

const runState = z.enum(["completed", "waiting-again", "awaiting-approvals"]);

export const outcomeFields = {
  action: z.enum(ACTIONS),
  runId: z.string(),
  toolCallId: z.string(),
  agentId: z.string(),
  answer: z.string().meta({ description: "What the agent said after the decision." }),
  runState,
  approvals: approvalProgressSchema.optional(),
};

export const decisionOutcomeSchema = z.object(outcomeFields).meta({ id: "DecisionOutcome" });

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
    counts: z.object(
      Object.fromEntries(bulkStatus.options.map((status) => [status, z.number().int()])) as Record<z.infer<typeof bulkStatus>, z.ZodNumber>,
    ),
  })
  .meta({ id: "BulkOutcome" });
