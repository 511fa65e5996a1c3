/**
 * What a customer asks the demo agents, in the `Key: value` lines their scripted model reads (see
 * the playbooks in agents.ts): one builder per kind of request, used by the demo backlog (demo-backlog.ts),
 * the tests, the e2e fixtures and the benchmarks. The backlog is deterministic, so every fresh
 * demo database looks the same (ids of runs and calls aside).
 */

export interface DemoRequest {
  agent: AgentKey;
  /** "" for a run without a memory thread. */
  thread: string;
  /** "" for a run without memory at all (no resource either). */
  resource: string;
  text: string;
}

/** Key of an agent in createDemoAgents(). */
export type AgentKey = "refunds" | "customerRecords" | "outreach" | "shipping" | "supportDesk" | "billing";

/** Agent key (as in createConsoleMastra's agents) → agent id (as recorded in runs and used by the UI). */
export const agentIds: Record<AgentKey, string> = {
  refunds: "refunds",
  customerRecords: "customer-records",
  outreach: "outreach",
  shipping: "shipping",
  supportDesk: "support-desk",
  billing: "billing",
};

export interface AgentRequest {
  agent: AgentKey;
  text: string;
}

export interface Address {
  id: string;
  label: string;
  line1: string;
  city: string;
  postcode: string;
  country: string;
}

let counter = 0;
/** An order number unlikely to clash with the seeded ones (ORD-41xx…ORD-44xx) or other tests'. */
export function orderNumber(): string {
  counter += 1;
  return `ORD-${90000 + ((process.pid * 131 + counter * 7919 + Date.now()) % 900000)}`;
}

export const requests = {
  /** issueRefund (approval). Answer once approved: "Refund re_<order> issued: <amount> <currency> for order <order>." */
  refund({
    order = orderNumber(),
    email = "e2e@customer.example",
    amount = "42.50",
    currency = "EUR",
    reason = "parcel arrived damaged",
  } = {}) {
    return {
      agent: "refunds",
      text: `Request: full refund\nOrder: ${order}\nEmail: ${email}\nAmount: ${amount} ${currency}\nReason: ${reason}`,
    } satisfies AgentRequest;
  },
  /** settlePartialRefund (suspend; resume `{ amount: number > 0, note?: string }`). */
  partialRefund({
    order = orderNumber(),
    email = "e2e@customer.example",
    total = "80.00",
    currency = "EUR",
    reason = "item scratched",
  } = {}) {
    return {
      agent: "refunds",
      text: `Request: partial refund\nOrder: ${order}\nEmail: ${email}\nTotal: ${total} ${currency}\nReason: ${reason}`,
    } satisfies AgentRequest;
  },
  /**
   * Several refunds in one request: the agent calls issueRefund once per order in one step (parallel
   * calls; Mastra waits on them one at a time, in this order), then settlePartialRefund (suspend) for
   * `partial` if given. Answer once all are decided: one sentence per call.
   */
  severalRefunds({
    orders = [
      { order: orderNumber(), amount: "12.00", currency: "EUR" },
      { order: orderNumber(), amount: "30.00", currency: "EUR" },
    ],
    partial,
    email = "e2e@customer.example",
    reason = "two parcels arrived damaged",
  }: {
    orders?: Array<{ order: string; amount: string; currency: string }>;
    partial?: { order: string; total: string; currency: string };
    email?: string;
    reason?: string;
  } = {}) {
    const refunds = orders.map(({ order, amount, currency }) => `${order} ${amount} ${currency}`).join("; ");
    const partialLine = partial ? `\nPartial: ${partial.order} ${partial.total} ${partial.currency}` : "";
    return {
      agent: "refunds",
      text: `Request: several refunds\nEmail: ${email}\nReason: ${reason}\nRefunds: ${refunds}${partialLine}`,
    } satisfies AgentRequest;
  },
  /** deleteCustomerRecord (approval). */
  erasure({
    customer = "cust_e2e",
    email = "e2e@customer.example",
    request = "GDPR-9000",
    reason = "customer asked to be forgotten",
  } = {}) {
    return {
      agent: "customerRecords",
      text: `Customer: ${customer}\nEmail: ${email}\nRequest: ${request}\nReason: ${reason}`,
    } satisfies AgentRequest;
  },
  /** sendEmail (approval). `\n` in the body is written as a literal backslash-n, as the playbook expects. */
  email({
    to = "e2e@customer.example",
    subject = `About your order ${orderNumber()}`,
    body = "Hi,\\nthanks for waiting.\\n— Support",
  } = {}) {
    return { agent: "outreach", text: `To: ${to}\nSubject: ${subject}\nBody: ${body}` } satisfies AgentRequest;
  },
  /** chooseShippingAddress (suspend; resume `{ addressId: string, note?: string }`). */
  shipping({
    order = orderNumber(),
    email = "e2e@customer.example",
    addresses = defaultAddresses(order),
  }: { order?: string; email?: string; addresses?: Address[] } = {}) {
    return {
      agent: "shipping",
      text: `Order: ${order}\nEmail: ${email}\nAddresses: ${JSON.stringify(addresses)}`,
      addresses,
      order,
    } satisfies AgentRequest & { addresses: Address[]; order: string };
  },
};

/**
 * The support desk (a supervisor) hands `request` to the refunds or shipping agent, whose tool then
 * waits for a reviewer inside the support desk's run: the request's kind and resume data are the
 * delegated agent's.
 */
export function delegated(request: { agent: "refunds" | "shipping"; text: string }): AgentRequest {
  return { agent: "supportDesk", text: `Team: ${request.agent}\n${request.text}` };
}

/** The same refund request, made to the billing agent (a durable agent with the refunds agent's tools). */
export function durable(request: { agent: "refunds"; text: string }): AgentRequest {
  return { agent: "billing", text: request.text };
}

export function defaultAddresses(order: string): Address[] {
  const key = order.toLowerCase().replace(/[^a-z0-9]/g, "");
  return [
    { id: `addr_${key}_home`, label: "Home", line1: "12 Main Street", city: "Lyon", postcode: "69001", country: "FR" },
    { id: `addr_${key}_work`, label: "Work", line1: "204 Market Square", city: "Lyon", postcode: "69002", country: "FR" },
  ];
}
