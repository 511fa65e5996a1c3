/**
 * The demo backlog the seed runs (`npm run seed`): a deterministic set of customer requests over the
 * demo agents, plus the supervisor's delegated ones and the durable agent's, so every fresh demo
 * database looks the same.
 */
import type { RefundApprovalInput } from "./workflows.ts";
import { requests, delegated, durable, type DemoRequest, type Address, type AgentRequest } from "./requests.ts";

/** Requests the support desk delegates (seeded after the backlog below, on threads of their own). */
export function delegatedDemoRequests(): DemoRequest[] {
  return [
    {
      ...delegated(
        requests.refund({
          order: "ORD-4700",
          email: "ada@analytical.example",
          amount: "64.00",
          currency: "GBP",
          reason: "item never arrived",
        }),
      ),
      thread: "ticket-4900",
      resource: "cust_1001",
    },
    {
      ...delegated(requests.shipping({ order: "ORD-4701", email: "grace@cobol.example" })),
      thread: "ticket-4901",
      resource: "cust_1002",
    },
  ];
}

/**
 * Requests to the durable billing agent (Mastra's createDurableAgent): an approval, a suspend()
 * for an amount, and two approvals in one step, on threads of their own.
 */
export function durableDemoRequests(): DemoRequest[] {
  return [
    {
      ...durable(
        requests.refund({
          order: "ORD-4710",
          email: "katherine@orbit.example",
          amount: "48.00",
          currency: "USD",
          reason: "charged twice for the same order",
        }),
      ),
      thread: "ticket-4910",
      resource: "cust_1004",
    },
    {
      ...durable(
        requests.partialRefund({
          order: "ORD-4711",
          email: "linus@kernel.example",
          total: "140.00",
          currency: "USD",
          reason: "one of two items missing",
        }),
      ),
      thread: "ticket-4911",
      resource: "cust_1005",
    },
    {
      ...durable(
        requests.severalRefunds({
          orders: [
            { order: "ORD-4712", amount: "22.00", currency: "USD" },
            { order: "ORD-4713", amount: "35.00", currency: "USD" },
          ],
          email: "margaret@apollo.example",
          reason: "both orders cancelled before shipping",
        }),
      ),
      thread: "ticket-4912",
      resource: "cust_1006",
    },
  ];
}

/**
 * Conversations that ended before the backlog: the shipping agent (the demo agent with memory)
 * answered Ada on ticket-4801, where a later shipping request of hers then waits, so that call has
 * messages "Earlier in this thread". Each is run to its end with `addressId` as the reviewer's answer.
 */
export function demoThreadHistory(): Array<DemoRequest & { addressId: string }> {
  const [ada] = customers;
  const request = requests.shipping({ order: "ORD-4090", email: ada.email, addresses: customerAddresses(ada, 0) });
  return [{ agent: request.agent, text: request.text, thread: "ticket-4801", resource: ada.id, addressId: request.addresses[0]!.id }];
}

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

/**
 * Refunds above the desk's limit, each waiting in the refund-approval workflow (not an agent) for a
 * manager's answer: workflow runs have a resource (the customer) and no thread.
 */
export function demoWorkflowRequests(): Array<{ resource: string; input: RefundApprovalInput }> {
  const [, grace, , katherine] = customers;
  return [
    {
      resource: grace.id,
      input: { orderId: "ORD-4601", customerEmail: grace.email, amount: 740, currency: "EUR", reason: "espresso machine arrived broken" },
    },
    {
      resource: katherine.id,
      input: { orderId: "ORD-4602", customerEmail: katherine.email, amount: 1250, currency: "USD", reason: "laptop never delivered" },
    },
  ];
}
