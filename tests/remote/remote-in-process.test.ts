/**
 * Remote mode through the console's decision code in this process (decide(), as the server actions
 * and the JSON API call it), against the example Mastra server process: the console builds no
 * Mastra instance of its own, and a supervisor's delegated suspend() is checked against the
 * sub-agent tool's schema (which Mastra records in the run's snapshot) before anything is sent.
 * On SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { delegated, durable, requests } from "../../lib/mastra/demo/requests.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { listConsoleAgents } from "../../lib/queue/agents.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";

/** The console's process-wide Mastra instances (lib/mastra/index.ts `getMastra`, via processCache). */
const localMastraInstances = () =>
  (globalThis as unknown as Record<string, Map<string, unknown> | undefined>)["__approvalsConsole:mastra"]?.size ?? 0;

describe.each(["sqlite", "postgres"] as const)("remote mode in process on %s", (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let mastraServer: MastraServerProcess;
  const saved = { url: process.env.MASTRA_SERVER_URL, token: process.env.MASTRA_SERVER_TOKEN };

  beforeAll(async () => {
    mastraServer = await startMastraServer(database.url);
    process.env.MASTRA_SERVER_URL = mastraServer.url;
    process.env.MASTRA_SERVER_TOKEN = TEST_SERVER_TOKEN;
  }, 120_000);

  afterAll(async () => {
    process.env.MASTRA_SERVER_URL = saved.url;
    process.env.MASTRA_SERVER_TOKEN = saved.token;
    if (saved.url === undefined) delete process.env.MASTRA_SERVER_URL;
    if (saved.token === undefined) delete process.env.MASTRA_SERVER_TOKEN;
    await mastraServer?.stop();
  });

  it("decides and lists agents without building a local Mastra instance", async () => {
    const refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-6001"));
    const outcome = await decide({ action: "approve", ...refund.ref }, { reviewer: "rita@test.example", databaseUrl: database.url });
    expect(outcome).toMatchObject({ answer: "Refund re_ord6001 issued: 42.5 EUR for order ORD-6001.", runState: "completed" });
    const agents = await listConsoleAgents();
    expect(agents.map((agent) => agent.id).sort()).toEqual([
      "billing",
      "customer-records",
      "outreach",
      "refunds",
      "shipping",
      "support-desk",
    ]);
    expect(agents.find((agent) => agent.id === "refunds")).toMatchObject({ name: "Refunds", kind: "agent" });
    expect(localMastraInstances()).toBe(0);
  });

  it("a delegated suspend() is checked against the sub-agent tool's schema, then resumed through the supervisor", async () => {
    // Its own Mastra instance, as an agent host would run it (not the console's).
    const host = await createConsoleMastra(database.url);
    const resource = `cust_${randomUUID()}`;
    const call = await runUntilWaiting(
      host.getAgent("supportDesk"),
      delegated({ agent: "shipping", text: shippingRequest("ORD-6002") }).text,
      {
        thread: `ticket-${randomUUID()}`,
        resource,
      },
    );
    const ref = { runId: call.runId, toolCallId: call.toolCallId };
    await expect(
      decide(
        { action: "resume", ...ref, resumeData: { addressId: "addr_home", courier: "fast" } },
        { reviewer: "rita@test.example", databaseUrl: database.url },
      ),
    ).rejects.toMatchObject({ code: "invalid_resume_data", message: expect.stringContaining("courier") });
    expect(mastraServer.output()).not.toMatch(/support-desk\/resume-stream/);

    const outcome = await decide(
      { action: "resume", ...ref, resumeData: { addressId: "addr_home" } },
      { reviewer: "rita@test.example", databaseUrl: database.url },
    );
    expect(outcome.answer).toContain("Home: 1 Main St, Springfield");
    expect(mastraServer.output()).toMatch(/--> POST \/api\/agents\/support-desk\/resume-stream 200/);
    const db = await getDb(database.url);
    expect(await db.toolEffect.count({ where: { resourceId: { startsWith: resource } } })).toBe(1);
    expect(localMastraInstances()).toBe(0);
  });

  it("a durable agent's run with a resource: Mastra's server refuses a service caller (403), the reviewer is told why, the call stays decidable", async () => {
    const host = await createConsoleMastra(database.url);
    const request = requests.refund({ order: "ORD-6003", email: "a@b.example", amount: "10", currency: "EUR", reason: "late" });
    const call = await runUntilWaiting(host.getAgent("billing"), durable({ agent: "refunds", text: request.text }).text, {
      thread: `ticket-${randomUUID()}`,
      resource: `cust_${randomUUID()}`,
    });
    const ref = { runId: call.runId, toolCallId: call.toolCallId };
    await expect(decide({ action: "approve", ...ref }, { reviewer: "rita@test.example", databaseUrl: database.url })).rejects.toMatchObject(
      {
        code: "agent_failed",
        message: expect.stringMatching(
          /refused to continue this durable agent's run \(403: Access denied: durable run belongs to a different resource\)/,
        ),
      },
    );
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: ref } })).toMatchObject({ state: "released" });
    expect(await db.toolEffect.count({ where: { toolCallId: call.toolCallId } })).toBe(0);
  });
});
