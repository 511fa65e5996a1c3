/**
 * A demo workflow (a plain Mastra workflow, no agent) whose step waits for a person: refunds above
 * the desk's limit need a manager's approval. `manager-approval` calls `suspend()` with what the
 * manager needs to know and declares the answer it takes (`resumeSchema`); the console lists the run
 * as a workflow run and resumes it through `run.resume({ step, resumeData })`.
 */
import { createStep, createWorkflow } from "@mastra/core/workflows";
import { z } from "zod";
import { failpoint } from "../../failpoint.ts";
import type { EffectRecorder } from "./tool-effects.ts";

/** The workflow's id: its runs are stored and listed under it. */
export const REFUND_APPROVAL_WORKFLOW = "refund-approval";

const money = { amount: z.number().positive(), currency: z.enum(["EUR", "USD", "GBP"]) };

export const refundApprovalInput = z.object({
  orderId: z.string().min(1),
  customerEmail: z.string().min(1),
  ...money,
  reason: z.string(),
});

export type RefundApprovalInput = z.infer<typeof refundApprovalInput>;

const approvalAnswer = z
  .object({
    approved: z.boolean().describe("Whether the refund goes ahead"),
    amount: z.number().positive().optional().describe("A lower amount to refund instead, if any"),
    note: z.string().max(500).optional().describe("Why, for the customer and the audit log"),
  })
  .strict();

export function createDemoWorkflows({ recordEffect }: { recordEffect: EffectRecorder }) {
  const assessRefund = createStep({
    id: "assess-refund",
    description: "Checks the refund against the desk's limit",
    inputSchema: refundApprovalInput,
    outputSchema: refundApprovalInput.extend({ policy: z.string() }),
    execute: async ({ inputData }) => ({
      ...inputData,
      policy: `Refunds above 500 ${inputData.currency} need a manager's approval.`,
    }),
  });

  const managerApproval = createStep({
    id: "manager-approval",
    description: "A manager approves (or lowers, or refuses) a refund above the desk's limit",
    inputSchema: assessRefund.outputSchema,
    outputSchema: refundApprovalInput.extend({ approved: z.boolean(), note: z.string().optional() }),
    suspendSchema: refundApprovalInput.extend({ policy: z.string(), question: z.string() }),
    resumeSchema: approvalAnswer,
    execute: async ({ inputData, resumeData, suspend }) => {
      if (!resumeData) {
        return await suspend({
          ...inputData,
          question: `Refund ${inputData.amount} ${inputData.currency} for order ${inputData.orderId}?`,
        });
      }
      const { policy: _policy, ...request } = inputData;
      return { ...request, amount: resumeData.amount ?? request.amount, approved: resumeData.approved, note: resumeData.note };
    },
  });

  const settleRefund = createStep({
    id: "settle-refund",
    description: "Refunds the approved amount",
    inputSchema: managerApproval.outputSchema,
    outputSchema: z.object({ orderId: z.string(), refunded: z.boolean(), amount: z.number(), currency: z.string() }),
    execute: async ({ inputData, runId }) => {
      const outcome = { orderId: inputData.orderId, refunded: inputData.approved, amount: inputData.amount, currency: inputData.currency };
      if (!inputData.approved) return outcome;
      // The run and step are the idempotency key: one refund per approved run, however often it is resumed.
      await recordEffect({
        agentId: `workflow:${REFUND_APPROVAL_WORKFLOW}`,
        toolName: "settle-refund",
        toolCallId: `${runId}:manager-approval`,
        input: inputData,
        output: outcome,
      });
      failpoint("after-effect");
      return outcome;
    },
  });

  const refundApproval = createWorkflow({
    id: REFUND_APPROVAL_WORKFLOW,
    description: "Refunds above the desk's limit, approved by a manager",
    inputSchema: refundApprovalInput,
    outputSchema: settleRefund.outputSchema,
  })
    .then(assessRefund)
    .then(managerApproval)
    .then(settleRefund)
    .commit();

  return { refundApproval };
}
