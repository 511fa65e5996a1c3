/**
 * Demo agents for the console: a support desk whose risky tools wait for a person. Two kinds of
 * waiting are represented:
 *  - approval: `requireApproval` tools (refund, delete a customer record, send an email);
 *  - input: tools that call `suspend()` and declare a `resumeSchema` (pick a shipping address,
 *    settle a partial refund amount).
 * Shapes: single agents, a supervisor (`supportDesk`) and a durable agent (`billing`, Mastra's
 * `createDurableAgent`: its loop runs as a stored workflow).
 * Offline they run on a scripted model that reads the request with a few patterns; set AGENT_MODEL
 * (e.g. "openai/gpt-4o-mini", with that provider's API key) to run them on a real model instead.
 */
import { Agent } from "@mastra/core/agent";
import { Memory } from "@mastra/memory";
import { followSuggestion } from "./follow-suggestion.ts";
import { createScriptedModel, type ScriptContext, type ScriptedTurn } from "./scripted-model.ts";
import type { EffectRecorder } from "./tool-effects.ts";
import { createDemoTools } from "./tools.ts";

/* ---------- the scripted model's playbooks ---------- */

/** Reads a `key: value` field from the request text ("Order: ORD-1", "Email: a@b.c"). */
function field(text: string, key: string): string {
  const match = new RegExp(`^${key}:\\s*(.+)$`, "im").exec(text);
  return match?.[1]?.trim() ?? "";
}

function amountOf(text: string, key: string) {
  const [amount, currency] = field(text, key).split(/\s+/);
  return { amount: Number(amount), currency: (currency ?? "EUR") as "EUR" | "USD" | "GBP" };
}

/** What the agent says once a tool has answered: the result, or why it did not happen. */
function reportOutcome(context: ScriptContext, done: (value: any) => string): ScriptedTurn {
  const last = context.toolResults.at(-1)!;
  const output = last.output as { type?: string; value?: unknown };
  if (output?.type === "json") return { type: "text", text: done(output.value) };
  const why = typeof output?.value === "string" ? output.value : JSON.stringify(output?.value ?? output);
  return { type: "text", text: `I did not go ahead with ${last.toolName}: ${why}` };
}

const reportRefund = (context: ScriptContext): ScriptedTurn =>
  reportOutcome(context, (result) =>
    result?.refundId
      ? `Refund ${result.refundId} issued: ${result.amount} ${result.currency} for order ${result.orderId}.`
      : `Refunded ${result.refunded.amount} ${result.refunded.currency} for order ${result.orderId}.`,
  );

/**
 * Several refunds asked for at once ("Refunds: ORD-1 12.00 EUR; ORD-2 30.00 EUR", optionally
 * "Partial: ORD-3 80.00 EUR"): one step with a call per order, as a model making parallel calls would.
 */
function severalRefunds(text: string): ScriptedTurn {
  const customerEmail = field(text, "Email");
  const reason = field(text, "Reason");
  const entries = (key: string) =>
    field(text, key)
      .split(";")
      .map((entry) => entry.trim().split(/\s+/))
      .filter(([orderId]) => orderId);
  const calls: Array<{ toolName: string; args: Record<string, unknown> }> = entries("Refunds").map(([orderId, amount, currency]) => ({
    toolName: "issueRefund",
    args: { orderId, customerEmail, amount: Number(amount), currency: currency ?? "EUR", reason },
  }));
  for (const [orderId, total, currency] of entries("Partial")) {
    calls.push({
      toolName: "settlePartialRefund",
      args: { orderId, customerEmail, orderTotal: { amount: Number(total), currency: currency ?? "EUR" }, dispute: reason },
    });
  }
  return { type: "tool-calls", calls };
}

const refundsPlaybook = (context: ScriptContext): ScriptedTurn => {
  if (context.toolResults.length > 1) {
    const reports = context.toolResults.map((_, i) => reportRefund({ ...context, toolResults: context.toolResults.slice(0, i + 1) }));
    return { type: "text", text: reports.map((report) => (report.type === "text" ? report.text : "")).join(" ") };
  }
  if (context.toolResults.length > 0) return reportRefund(context);
  const text = context.userText;
  if (field(text, "Refunds")) return severalRefunds(text);
  const common = { orderId: field(text, "Order"), customerEmail: field(text, "Email") };
  if (/partial/i.test(field(text, "Request"))) {
    return {
      type: "tool-call",
      toolName: "settlePartialRefund",
      args: { ...common, orderTotal: amountOf(text, "Total"), dispute: field(text, "Reason") },
    };
  }
  return {
    type: "tool-call",
    toolName: "issueRefund",
    args: { ...common, ...amountOf(text, "Amount"), reason: field(text, "Reason") },
  };
};

const recordsPlaybook = (context: ScriptContext): ScriptedTurn => {
  if (context.toolResults.length > 0) {
    return reportOutcome(context, (result) => `Customer ${result.customerId} erased (request ${result.requestId}).`);
  }
  const text = context.userText;
  return {
    type: "tool-call",
    toolName: "deleteCustomerRecord",
    args: {
      customerId: field(text, "Customer"),
      email: field(text, "Email"),
      requestId: field(text, "Request"),
      reason: field(text, "Reason"),
    },
  };
};

const outreachPlaybook = (context: ScriptContext): ScriptedTurn => {
  if (context.toolResults.length > 0) {
    return reportOutcome(context, (result) => `Email "${result.subject}" sent to ${result.to} (${result.messageId}).`);
  }
  const text = context.userText;
  return {
    type: "tool-call",
    toolName: "sendEmail",
    args: { to: field(text, "To"), subject: field(text, "Subject"), body: field(text, "Body").replaceAll("\\n", "\n") },
  };
};

const shippingPlaybook = (context: ScriptContext): ScriptedTurn => {
  if (context.toolResults.length > 0) {
    return reportOutcome(context, (result) =>
      result?.shipped
        ? `Order ${result.orderId} will ship to ${result.address.label}: ${result.address.line1}, ${result.address.city}.`
        : `Order ${result.orderId} is on hold: ${result.error}.`,
    );
  }
  const text = context.userText;
  let addresses: unknown = [];
  try {
    addresses = JSON.parse(field(text, "Addresses") || "[]");
  } catch {
    addresses = [];
  }
  return {
    type: "tool-call",
    toolName: "chooseShippingAddress",
    args: { orderId: field(text, "Order"), customerEmail: field(text, "Email"), addresses },
  };
};

/**
 * The support desk, a supervisor: it hands a request to the agent its `Team:` line names, through
 * Mastra's `agent-<name>` tool, then reports what that agent answered.
 */
const supportDeskPlaybook = (context: ScriptContext): ScriptedTurn => {
  const last = context.toolResults.at(-1);
  if (last) {
    const output = last.output as { value?: unknown };
    const answer = typeof output?.value === "string" ? output.value : JSON.stringify(output?.value ?? output);
    return { type: "text", text: `The ${last.toolName.replace(/^agent-/, "")} agent answered: ${answer}` };
  }
  const team = field(context.userText, "Team") || "refunds";
  return { type: "tool-call", toolName: `agent-${team}`, args: { prompt: context.userText } };
};

/** How many of a thread's earlier messages the shipping agent (the demo agent with memory) is sent. */
export const SHIPPING_LAST_MESSAGES = 20;

/** A real model when AGENT_MODEL names one, else the agent's offline playbook. */
function modelFor(agentId: string, playbook: (context: ScriptContext) => ScriptedTurn) {
  const configured = process.env.AGENT_MODEL;
  return configured ? configured : createScriptedModel(`${agentId}-playbook`, playbook);
}

export function createDemoAgents({ recordEffect }: { recordEffect: EffectRecorder }) {
  const { issueRefund, settlePartialRefund, deleteCustomerRecord, sendEmail, chooseShippingAddress } = createDemoTools(recordEffect);
  const agents = {
    refunds: new Agent({
      id: "refunds",
      name: "Refunds",
      description: "Handles refund requests; refunds need a reviewer's approval, partial ones a reviewer's amount.",
      instructions:
        "You handle refund requests for an online shop. Use issueRefund for full refunds and settlePartialRefund when the request is for a partial refund.",
      model: modelFor("refunds", followSuggestion(refundsPlaybook)),
      tools: { issueRefund, settlePartialRefund },
    }),
    customerRecords: new Agent({
      id: "customer-records",
      name: "Customer records",
      description: "Carries out GDPR erasure requests; every erasure needs a reviewer's approval.",
      instructions: "You carry out verified data erasure requests with deleteCustomerRecord.",
      model: modelFor("customer-records", followSuggestion(recordsPlaybook)),
      tools: { deleteCustomerRecord },
    }),
    outreach: new Agent({
      id: "outreach",
      name: "Outreach",
      description: "Writes to customers; every email needs a reviewer's approval.",
      instructions: "You write short, polite emails to customers and send them with sendEmail.",
      model: modelFor("outreach", followSuggestion(outreachPlaybook)),
      tools: { sendEmail },
    }),
    shipping: new Agent({
      id: "shipping",
      name: "Shipping",
      description: "Routes orders; asks a person which address to use when a customer has several.",
      instructions: "When a customer has several addresses, ask with chooseShippingAddress which one to ship to.",
      model: modelFor("shipping", shippingPlaybook),
      tools: { chooseShippingAddress },
      // The one demo agent with memory: it keeps its threads' messages (in Mastra's store, beside the
      // approvals store) and is sent the last 20 of them, which a reviewer reads as "Earlier in this thread".
      memory: new Memory({ options: { lastMessages: SHIPPING_LAST_MESSAGES } }),
    }),
  };
  return {
    ...agents,
    // A durable agent (Mastra's createDurableAgent) doing the refunds agent's job with its tools and
    // playbook: the same requests, stored under Mastra's `durable-agentic-loop` workflow instead.
    // `durable: true` makes Mastra wrap it at registration (what createDurableAgent({ agent }) does),
    // and keeps it typed as an Agent: Mastra 1.71's DurableAgent type is not assignable to Agent.
    billing: new Agent({
      id: "billing",
      name: "Billing (durable)",
      description: "A durable agent: refunds need a reviewer's approval, partial ones a reviewer's amount; its runs survive restarts.",
      instructions:
        "You handle billing disputes. Use issueRefund for full refunds and settlePartialRefund when the request is for a partial refund.",
      model: modelFor("billing", followSuggestion(refundsPlaybook)),
      tools: { issueRefund, settlePartialRefund },
      durable: true,
    }),
    // A supervisor (Mastra's `agents` option) over two of the agents above: their tools wait for a
    // reviewer inside its runs. The keys name its `agent-<key>` tools; they are the agents' ids.
    supportDesk: new Agent({
      id: "support-desk",
      name: "Support desk",
      description: "A supervisor: hands refund and shipping requests to the refunds and shipping agents.",
      instructions:
        "You triage support requests and delegate them: refunds to the refunds agent, shipping questions to the shipping agent.",
      model: modelFor("support-desk", supportDeskPlaybook),
      agents: { refunds: agents.refunds, shipping: agents.shipping },
    }),
  };
}
