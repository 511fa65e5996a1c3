/** Runs the console's own demo agents into suspension, as an agent host would. */
import { randomUUID } from "node:crypto";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { requests, type AgentKey } from "../../lib/mastra/demo/requests.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";

type DemoAgent = AgentKey;

export interface DemoRun {
  /** What the decision actions take. */
  ref: { runId: string; toolCallId: string };
  runId: string;
  resource: string;
  thread: string;
}

/**
 * How the run is started: on a thread and resource (the default); with only a resource (no thread);
 * or without memory at all (neither is recorded: `resource` and `thread` are then "").
 */
export type DemoMemory = "thread" | "resource-only" | "none";

/** A fresh Mastra instance per run: Mastra holds a second stream on a busy thread of one instance. */
export async function suspendDemoRun(databaseUrl: string, agent: DemoAgent, text: string, memory: DemoMemory = "thread"): Promise<DemoRun> {
  const mastra = await createConsoleMastra(databaseUrl);
  const resource = memory === "none" ? "" : `cust_${randomUUID()}`;
  const thread = memory === "thread" ? `ticket-${randomUUID()}` : "";
  const { runId, toolCallId } = await runUntilWaiting(
    mastra.getAgent(agent),
    text,
    memory === "none" ? undefined : memory === "resource-only" ? { resource } : { thread, resource },
  );
  return { ref: { runId, toolCallId }, runId, resource, thread };
}

/** A refund request ("Amount: 42.50 EUR" style), through the demo's one request builder. */
export const refundRequest = (order = "ORD-9", amountAndCurrency = "42.50 EUR") => {
  const [amount, currency] = amountAndCurrency.split(" ");
  return requests.refund({ order, email: "a@b.example", amount, currency, reason: "damaged" }).text;
};

/** A shipping request offering one address, "Home: 1 Main St, Springfield". */
export const shippingRequest = (order = "ORD-77") =>
  requests.shipping({
    order,
    email: "a@b.example",
    addresses: [{ id: "addr_home", label: "Home", line1: "1 Main St", city: "Springfield", postcode: "1", country: "US" }],
  }).text;
