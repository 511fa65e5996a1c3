/**
 * "About this tool": what a waiting call's tool says about itself, on SQLite and PostgreSQL, from
 * the console's own demo agents (a plain call, a supervisor's delegated one: the sub-agent's tool, a
 * workflow step) and, in remote mode, from the example Mastra server: the same description and
 * argument descriptions either way.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readToolInfo } from "../../lib/actions/read-tool-info.ts";
import { runAs } from "../../lib/auth/session.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { delegated } from "../../lib/mastra/demo/requests.ts";
import { startUntilSuspended } from "../../lib/mastra/demo/run-until-waiting.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";

const ISSUE_REFUND = {
  toolName: "issueRefund",
  description: "Refund an order to the customer's original payment method.",
  fields: [
    { path: "orderId", type: "string", description: "The shop's order number", required: true },
    { path: "customerEmail", type: "string", description: "The customer's address, where the refund confirmation goes", required: true },
    { path: "amount", type: "number", description: "How much goes back to the customer: the whole order", required: true },
    { path: "currency", type: '"EUR" | "USD" | "GBP"', description: "Currency of the amount", required: true },
    { path: "reason", type: "string", description: "Why the customer asks, in their words", required: true },
  ],
};

describe.each(["sqlite", "postgres"] as const)("about the tool a call waits on, on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let support: TestAccount;
  beforeAll(async () => {
    support = await createTestAccount(database.url, "support", `Sue-${kind}`);
  });
  // Support may read it: they look customers up.
  const read = (ref: { runId: string; toolCallId: string }) => runAs(actorOf(support), () => readToolInfo(ref));

  it("of a call of the console's own agent, and of a supervisor's sub-agent", async () => {
    const plain = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7201"));
    expect(await read(plain.ref)).toEqual({ ok: true, data: { ...ISSUE_REFUND, source: "registered" } });
    const viaSupervisor = await suspendDemoRun(
      database.url,
      "supportDesk",
      delegated({ agent: "refunds", text: refundRequest("ORD-7202") }).text,
    );
    expect(await read(viaSupervisor.ref)).toEqual({ ok: true, data: { ...ISSUE_REFUND, source: "registered" } });
  });

  it("of a workflow step, and nothing for a call that no longer waits", async () => {
    const mastra = await createConsoleMastra(database.url);
    const input = { orderId: "ORD-7203", customerEmail: "w@customer.example", amount: 900, currency: "EUR", reason: "broken" };
    const waiting = await startUntilSuspended(mastra.getWorkflow("refundApproval"), input, {
      resource: `cust_${randomUUID()}`,
      databaseUrl: database.url,
    });
    const info = await read({ runId: waiting.runId, toolCallId: waiting.toolCallId });
    expect(info).toMatchObject({ ok: true, data: { toolName: "manager-approval", source: "registered" } });
    expect(await read({ runId: randomUUID(), toolCallId: "call_x" })).toEqual({ ok: true, data: null });
    expect(await read({ runId: "a\u0000b", toolCallId: "call_x" })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
  });
});

describe("about the tool, in remote mode: from the team's Mastra server", { timeout: 120_000 }, () => {
  const database = useTestDatabase("sqlite", { asDefault: true });
  let mastraServer: MastraServerProcess;
  let reviewer: TestAccount;
  const saved = { url: process.env.MASTRA_SERVER_URL, token: process.env.MASTRA_SERVER_TOKEN };

  beforeAll(async () => {
    [mastraServer, reviewer] = await Promise.all([startMastraServer(database.url), createTestAccount(database.url, "reviewer", "Remo")]);
    process.env.MASTRA_SERVER_URL = mastraServer.url;
    process.env.MASTRA_SERVER_TOKEN = TEST_SERVER_TOKEN;
  }, 120_000);

  afterAll(async () => {
    for (const [name, value] of [
      ["MASTRA_SERVER_URL", saved.url],
      ["MASTRA_SERVER_TOKEN", saved.token],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await mastraServer?.stop();
  });

  it("describes the same tool as the embedded console does", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7204"));
    expect(await runAs(actorOf(reviewer), () => readToolInfo(run.ref))).toEqual({ ok: true, data: { ...ISSUE_REFUND, source: "server" } });
    const viaSupervisor = await suspendDemoRun(
      database.url,
      "supportDesk",
      delegated({ agent: "refunds", text: refundRequest("ORD-7205") }).text,
    );
    expect(await runAs(actorOf(reviewer), () => readToolInfo(viaSupervisor.ref))).toEqual({
      ok: true,
      data: { ...ISSUE_REFUND, source: "server" },
    });
  });
});
