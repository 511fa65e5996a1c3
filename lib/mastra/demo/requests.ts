/**
 * The demo backlog: customer requests that make the demo agents stop and wait for a reviewer.
 * Deterministic, so every fresh demo database looks the same (ids of runs and calls aside).
 */

export interface DemoRequest {
  /** Key of the agent in createDemoAgents(). */
  agent: "refunds" | "customerRecords" | "outreach" | "shipping";
  thread: string;
  resource: string;
  text: string;
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
  switch (kind) {
    case "refund":
      return {
        agent: "refunds",
        text: `Request: full refund\nOrder: ${order}\nEmail: ${customer.email}\nAmount: ${amount} ${currency}\nReason: ${reasons[n % reasons.length]}`,
      };
    case "partialRefund":
      return {
        agent: "refunds",
        text: `Request: partial refund\nOrder: ${order}\nEmail: ${customer.email}\nTotal: ${amount} ${currency}\nReason: ${reasons[(n + 2) % reasons.length]}, customer asks for part of the price back`,
      };
    case "email":
      return {
        agent: "outreach",
        text: [
          `To: ${customer.email}`,
          `Subject: About your order ${order}`,
          // One message quotes the customer verbatim, markup included: the console must show it as text.
          n % 5 === 2
            ? `Body: Hi ${customer.name.split(" ")[0]},\\nyou wrote: "<img src=x onerror=alert('xss')> <script>alert(1)</script>". We are on it.\\n— Support`
            : `Body: Hi ${customer.name.split(" ")[0]},\\nthanks for your patience with order ${order}. It ships tomorrow.\\n— Support`,
        ].join("\n"),
      };
    case "shipping": {
      const addresses = [
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
      return { agent: "shipping", text: `Order: ${order}\nEmail: ${customer.email}\nAddresses: ${JSON.stringify(addresses)}` };
    }
    case "erasure":
      return {
        agent: "customerRecords",
        text: `Customer: ${customer.id}\nEmail: ${customer.email}\nRequest: GDPR-${7000 + n}\nReason: customer asked to be forgotten (verified by email)`,
      };
  }
}

/** 6 customers, 12 threads, 47 requests of both kinds; each thread holds 2 to 6 of them. */
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
  return requests;
}
