/**
 * What GET /api/runs and GET /api/queue answer (dto.ts's `RunsPageDto` and `QueuePageDto`), as zod
 * schemas for the OpenAPI document (lib/openapi); lib/openapi/declare.ts checks them against the types.
 */
import { z } from "zod";
import { approvalProgressSchema } from "../decisions/api-schemas.ts";
import { QUEUE_SORTS } from "../list-params.ts";
import { RISKS } from "../risk.ts";

const date = z.string().meta({ format: "date-time" });
const action = z.enum(["approve", "decline", "resume", "expire"]);

const assigneeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    via: z.enum(["call", "thread"]).optional(),
    assignedBy: z.string(),
    assignedAt: date,
    exclusive: z.boolean().optional(),
  })
  .meta({ id: "Assignee" });

export const toolCallSchema = z
  .object({
    toolCallId: z.string().optional(),
    toolName: z.string().optional(),
    args: z
      .unknown()
      .optional()
      .meta({ description: "The call's arguments as the agent sent them (GET /api/runs; the queue leaves them out)." }),
    requiresApproval: z
      .boolean()
      .meta({ description: "An approval (approve or decline); false: a suspend() call waiting for resume data." }),
    suspendPayload: z.unknown().optional(),
    path: z.array(z.string()).optional().meta({ description: "A delegated call's path: supervisor, sub-agent(s), tool." }),
    step: z.array(z.string()).optional().meta({ description: "A workflow's suspended step path." }),
    interrupted: z
      .object({ reviewer: z.string(), action, decidedAt: date, interruptedAt: date })
      .optional()
      .meta({ description: "Its last decision was cut short by a server stop: its tool may have run." }),
    inFlight: z.object({ reviewer: z.string(), action, decidedAt: date }).optional(),
    markedExpired: z.object({ expiredAt: date, reason: z.string().nullable() }).optional(),
    approvals: approvalProgressSchema.optional(),
    assignee: assigneeSchema.optional(),
    expiresAt: date.optional(),
    risk: z.enum(RISKS).optional(),
  })
  .meta({ id: "ToolCall" });

export const runSchema = z
  .object({
    runId: z.string(),
    status: z.literal("suspended"),
    shape: z.enum(["agent", "durable-agent", "workflow"]),
    agentId: z.string(),
    threadId: z.string().optional(),
    resourceId: z.string().optional(),
    suspendedAt: date,
    toolCalls: z.array(toolCallSchema),
    requestExcerpt: z.string().optional(),
  })
  .meta({ id: "Run" });

const pageFields = { page: z.number().int(), perPage: z.number().int(), pageCount: z.number().int() };

export const runsPageSchema = z.object({ runs: z.array(runSchema), total: z.number().int(), ...pageFields }).meta({ id: "RunsPage" });

export const queuePageSchema = z
  .object({
    threads: z.array(
      z.object({
        threadKey: z.string().meta({ description: 'The thread\'s id, or "" for runs without a thread.' }),
        calls: z.number().int(),
        overdueCalls: z.number().int(),
        oldestSuspendedAt: date,
        assignee: assigneeSchema.optional(),
        runs: z.array(runSchema),
      }),
    ),
    threadTotal: z.number().int(),
    callTotal: z.number().int(),
    ...pageFields,
    sort: z.enum(QUEUE_SORTS),
    slaMinutes: z.number(),
    riskTargets: z.object(Object.fromEntries(RISKS.map((risk) => [risk, z.number()])) as Record<(typeof RISKS)[number], z.ZodNumber>),
  })
  .meta({ id: "QueuePage" });
