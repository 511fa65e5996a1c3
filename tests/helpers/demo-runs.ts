/** Runs the console's own demo agents into suspension, as an agent host would. */
import { randomUUID } from "node:crypto";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";

type DemoAgent = "refunds" | "shipping" | "outreach" | "customerRecords";

export interface DemoRun {
  /** What the decision actions take. */
  ref: { runId: string; toolCallId: string };
  runId: string;
  resource: string;
  thread: string;
}

/** A fresh Mastra instance per run: Mastra holds a second stream on a busy thread of one instance. */
export async function suspendDemoRun(databaseUrl: string, agent: DemoAgent, text: string): Promise<DemoRun> {
  const mastra = await createConsoleMastra(databaseUrl);
  const resource = `cust_${randomUUID()}`;
  const thread = `ticket-${randomUUID()}`;
  const { runId, toolCallId } = await runUntilWaiting(mastra.getAgent(agent), text, { thread, resource });
  return { ref: { runId, toolCallId }, runId, resource, thread };
}

export const refundRequest = (order = "ORD-9", amount = "42.50 EUR") =>
  `Request: full refund\nOrder: ${order}\nEmail: a@b.example\nAmount: ${amount}\nReason: damaged`;

export const shippingRequest = (order = "ORD-77") =>
  `Order: ${order}\nEmail: a@b.example\nAddresses: [{"id":"addr_home","label":"Home","line1":"1 Main St","city":"Springfield","postcode":"1","country":"US"}]`;
