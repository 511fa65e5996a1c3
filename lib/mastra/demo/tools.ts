/**
 * The demo agents' tools: a support desk's risky actions. Approval tools (`requireApproval`): refund,
 * erase a customer record, send an email. Input tools (`suspend()` with a `resumeSchema`): pick a
 * shipping address, settle a partial refund amount. Each real execution is recorded once per tool
 * call, its id being the idempotency key (tool-effects.ts).
 */
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { failpoint } from "../../failpoint.ts";
import type { EffectRecorder } from "./tool-effects.ts";

const money = z.object({ amount: z.number().positive(), currency: z.enum(["EUR", "USD", "GBP"]) });

const address = z.object({
  id: z.string(),
  label: z.string(),
  line1: z.string(),
  city: z.string(),
  postcode: z.string(),
  country: z.string(),
});

type ToolContext = { agent?: { agentId?: string; toolCallId?: string; threadId?: string; resourceId?: string } } | undefined;

/** The demo tools; each real execution is recorded through `record` (their side effect). */
export function createDemoTools(record: EffectRecorder) {
  /**
   * Runs a tool's action and records it as the tool's effect, once per tool call: the call's id is
   * the idempotency key (what a payment API's Idempotency-Key would get). A call approved again
   * after an interrupted decision gets the first execution's output back instead of a second effect.
   */
  async function perform<T>(toolName: string, context: ToolContext, input: unknown, action: () => T): Promise<T> {
    const toolCallId = context?.agent?.toolCallId;
    if (!toolCallId) throw new Error(`${toolName} needs the tool call's id as its idempotency key`);
    const output = action();
    const recorded = await record({
      agentId: context?.agent?.agentId ?? "unknown",
      toolName,
      toolCallId,
      threadId: context?.agent?.threadId,
      resourceId: context?.agent?.resourceId,
      input,
      output,
    });
    failpoint("after-effect");
    return recorded.output as T;
  }

  const issueRefund = createTool({
    id: "issue-refund",
    description: "Refund an order to the customer's original payment method.",
    inputSchema: z.object({
      orderId: z.string().describe("The shop's order number"),
      customerEmail: z.string().describe("The customer's address, where the refund confirmation goes"),
      amount: money.shape.amount.describe("How much goes back to the customer: the whole order"),
      currency: money.shape.currency.describe("Currency of the amount"),
      reason: z.string().describe("Why the customer asks, in their words"),
    }),
    requireApproval: true,
    execute: async (input, context) =>
      perform("issueRefund", context, input, () => ({
        refundId: `re_${input.orderId.toLowerCase().replace(/[^a-z0-9]/g, "")}`,
        orderId: input.orderId,
        amount: input.amount,
        currency: input.currency,
        status: "refunded",
      })),
  });

  const settlePartialRefund = createTool({
    id: "settle-partial-refund",
    description: "Ask a person how much of a disputed order to refund, then refund that amount.",
    inputSchema: z.object({ orderId: z.string(), customerEmail: z.string(), orderTotal: money, dispute: z.string() }),
    suspendSchema: z.object({
      question: z.string(),
      orderId: z.string(),
      orderTotal: money,
      dispute: z.string(),
    }),
    resumeSchema: z.object({
      amount: z.number().positive().describe("Amount to refund, at most the order total"),
      note: z.string().max(500).optional().describe("Shown to the customer"),
    }),
    execute: async (input, context) => {
      const decision = context?.agent?.resumeData as { amount: number; note?: string } | undefined;
      if (!decision) {
        return context?.agent?.suspend?.({
          question: `How much of order ${input.orderId} should be refunded?`,
          orderId: input.orderId,
          orderTotal: input.orderTotal,
          dispute: input.dispute,
        });
      }
      return perform("settlePartialRefund", context, { ...input, decision }, () => ({
        orderId: input.orderId,
        refunded: { amount: decision.amount, currency: input.orderTotal.currency },
        note: decision.note ?? null,
      }));
    },
  });

  const deleteCustomerRecord = createTool({
    id: "delete-customer-record",
    description: "Permanently erase a customer's record (GDPR erasure request).",
    inputSchema: z.object({
      customerId: z.string().describe("The record to erase"),
      email: z.string().describe("The address the erasure request came from"),
      requestId: z.string().describe("The erasure request's ticket, kept for the audit"),
      reason: z.string().describe("Why the record is erased"),
    }),
    requireApproval: true,
    execute: async (input, context) =>
      perform("deleteCustomerRecord", context, input, () => ({ customerId: input.customerId, requestId: input.requestId, erased: true })),
  });

  const sendEmail = createTool({
    id: "send-email",
    description: "Send an email to a customer.",
    inputSchema: z.object({
      to: z.string().describe("The customer's address"),
      subject: z.string().describe("Subject line"),
      body: z.string().describe("The email's text, sent as written"),
    }),
    requireApproval: true,
    execute: async (input, context) =>
      perform("sendEmail", context, input, () => ({
        to: input.to,
        subject: input.subject,
        messageId: `msg_${(context?.agent?.toolCallId ?? "").slice(-10)}`,
        sent: true,
      })),
  });

  const chooseShippingAddress = createTool({
    id: "choose-shipping-address",
    description: "Ask a person which of the customer's addresses an order ships to.",
    inputSchema: z.object({ orderId: z.string(), customerEmail: z.string(), addresses: z.array(address) }),
    suspendSchema: z.object({ question: z.string(), orderId: z.string(), addresses: z.array(address) }),
    resumeSchema: z.object({
      addressId: z.string().describe("The id of one of the offered addresses"),
      note: z.string().max(500).optional().describe("Instructions for the courier"),
    }),
    execute: async (input, context) => {
      const choice = context?.agent?.resumeData as { addressId: string; note?: string } | undefined;
      if (!choice) {
        return context?.agent?.suspend?.({
          question: `Order ${input.orderId}: the customer has several addresses on file. Which one should it ship to?`,
          orderId: input.orderId,
          addresses: input.addresses,
        });
      }
      const chosen = input.addresses.find((candidate) => candidate.id === choice.addressId);
      if (!chosen) return { orderId: input.orderId, shipped: false, error: `Unknown address ${choice.addressId}` };
      return perform("chooseShippingAddress", context, { ...input, choice }, () => ({
        orderId: input.orderId,
        shipped: true,
        address: chosen,
        note: choice.note ?? null,
      }));
    },
  });

  return { issueRefund, settlePartialRefund, deleteCustomerRecord, sendEmail, chooseShippingAddress };
}
