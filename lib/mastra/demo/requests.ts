/**
 * What a customer asks the demo agents, in the `Key: value` lines their scripted model reads (see
 * the playbooks in agents.ts): one builder per kind of request, used by the demo backlog below,
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
export type AgentKey = "refunds" | "customerRecords" | "outreach" | "shipping";

/** Agent key (as in createConsoleMastra's agents) → agent id (as recorded in runs and used by the UI). */
export const agentIds: Record<AgentKey, string> = {
  refunds: "refunds",
  customerRecords: "customer-records",
  outreach: "outreach",
  shipping: "shipping",
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

export function defaultAddresses(order: string): Address[] {
  const key = order.toLowerCase().replace(/[^a-z0-9]/g, "");
  return [
    { id: `addr_${key}_home`, label: "Home", line1: "12 Main Street", city: "Lyon", postcode: "69001", country: "FR" },
    { id: `addr_${key}_work`, label: "Work", line1: "204 Market Square", city: "Lyon", postcode: "69002", country: "FR" },
  ];
}

/* ---------- the demo backlog ---------- */

const customers = [
  { id: "cust_1001", name: "Ada Lovelace", email: "ada@analytical.example", city: "London", country: "GB" },
  { id: "cust_1002", name: "Grace Hopper", email: "grace@cobol.example", city: "Arlington", country: "US" },
  { id: "cust_1003", name: "Alan Turing", email: "alan@bletchley.example", city: "Manchester", country: "GB" },
  { id: "cust_1004", name: "Katherine Johnson", email: "katherine@orbit.example", city: "Hampton", country: "US" },
  { id: "cust_1005", name: "Linus Torvalds", email: "linus@kernel.example", city: "Portland", country: "US" },
  { id: "cust_1006", name: "Margaret Hamilton", email: "margaret@apollo.example", city: "Boston", country: "US" },
] as const;

type Customer = (typeof customers)[number];

const reasons = [
  "parcel arrived damaged",
  "charged twice for the same order",
  "item never arrived",
  "wrong size delivered",
  "subscription cancelled within the trial",
];

const requestKinds = ["refund", "partialRefund", "email", "shipping", "erasure", "refund", "email", "shipping"] as const;

function requestText(kind: (typeof requestKinds)[number], customer: Customer, n: number): Pick<DemoRequest, "agent" | "text"> {
  const order = `ORD-${4100 + n * 7}`;
  const currency = customer.country === "GB" ? "GBP" : "USD";
  const amount = (19.99 + ((n * 37) % 180)).toFixed(2);
  const email = customer.email;
  const pick = ({ agent, text }: AgentRequest) => ({ agent, text });
  switch (kind) {
    case "refund":
      return pick(requests.refund({ order, email, amount, currency, reason: reasons[n % reasons.length] }));
    case "partialRefund":
      return pick(
        requests.partialRefund({
          order,
          email,
          total: amount,
          currency,
          reason: `${reasons[(n + 2) % reasons.length]}, customer asks for part of the price back`,
        }),
      );
    case "email": {
      const first = customer.name.split(" ")[0];
      // One message quotes the customer verbatim, markup included: the console must show it as text.
      const body =
        n % 5 === 2
          ? `Hi ${first},\\nyou wrote: "<img src=x onerror=alert('xss')> <script>alert(1)</script>". We are on it.\\n— Support`
          : `Hi ${first},\\nthanks for your patience with order ${order}. It ships tomorrow.\\n— Support`;
      return pick(requests.email({ to: email, subject: `About your order ${order}`, body }));
    }
    case "shipping":
      return pick(requests.shipping({ order, email, addresses: customerAddresses(customer, n) }));
    case "erasure":
      return pick(
        requests.erasure({
          customer: customer.id,
          email,
          request: `GDPR-${7000 + n}`,
          reason: "customer asked to be forgotten (verified by email)",
        }),
      );
  }
}

function customerAddresses(customer: Customer, n: number): Address[] {
  return [
    {
      id: `addr_${customer.id}_home`,
      label: "Home",
      line1: `${10 + n} Main Street`,
      city: customer.city,
      postcode: `${10000 + n}`,
      country: customer.country,
    },
    {
      id: `addr_${customer.id}_work`,
      label: "Work",
      line1: `${200 + n} Market Square`,
      city: customer.city,
      postcode: `${20000 + n}`,
      country: customer.country,
    },
    {
      id: `addr_${customer.id}_parents`,
      label: "Parents",
      line1: `${3 + n} Orchard Lane`,
      city: "Springfield",
      postcode: `${30000 + n}`,
      country: customer.country,
    },
  ].slice(0, 2 + (n % 2));
}

/**
 * The other shapes of waiting runs: parallel calls of one step (two refunds; a refund and a partial
 * refund, approval then data) and runs without a thread (a resource only; no memory at all).
 */
function shapeRequests(): DemoRequest[] {
  const [ada, grace, , katherine] = customers;
  const on = (thread: string, resource: string, { agent, text }: AgentRequest): DemoRequest => ({ agent, text, thread, resource });
  const refunds = (orders: string[][], partial?: string[]) =>
    requests.severalRefunds({
      orders: orders.map(([order, amount, currency]) => ({ order: order!, amount: amount!, currency: currency! })),
      partial: partial && { order: partial[0]!, total: partial[1]!, currency: partial[2]! },
      email: partial ? katherine.email : ada.email,
      reason: partial ? "one order lost, one scratched" : "both parcels of the order arrived damaged",
    });
  return [
    on(
      "ticket-4890",
      ada.id,
      refunds([
        ["ORD-4501", "24.00", "GBP"],
        ["ORD-4502", "61.50", "GBP"],
      ]),
    ),
    on("ticket-4891", katherine.id, refunds([["ORD-4503", "15.00", "USD"]], ["ORD-4504", "120.00", "USD"])),
    on(
      "",
      grace.id,
      requests.email({ to: grace.email, subject: "Your invoice", body: "Hi Grace,\\nyour invoice is attached.\\n— Support" }),
    ),
    on("", "", requests.refund({ order: "ORD-4505", email: "walk-in@shop.example", amount: "9.99", currency: "EUR" })),
  ];
}

/**
 * 6 customers, 12 threads, 47 requests of both kinds (each thread holds 2 to 6 of them), then the
 * other shapes: 2 runs with parallel calls, 2 runs without a thread (one of them without memory).
 */
export function demoRequests(): DemoRequest[] {
  const requests: DemoRequest[] = [];
  let n = 0;
  customers.forEach((customer, c) => {
    for (let t = 0; t < 2; t++) {
      const thread = `ticket-${4800 + c * 10 + t}`;
      const runsInThread = 2 + (((c * 2 + t) * 3) % 5); // 2..6
      for (let r = 0; r < runsInThread; r++, n++) {
        requests.push({ ...requestText(requestKinds[(n + c) % requestKinds.length]!, customer, n), thread, resource: customer.id });
      }
    }
  });
  return [...requests, ...shapeRequests()];
}
