/**
 * Webhooks across real processes on SQLite and PostgreSQL: a process killed right after it wrote a
 * waiting run (the store's trigger recorded the call in that write) still gets its call announced
 * and delivered once a console server runs; two console servers on one database deliver every event
 * exactly once between them. Also measures suspend-to-webhook latency on this machine.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { createEndpoint } from "../../lib/webhooks/endpoints.ts";
import { childCommand } from "../helpers/child-scripts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const SERVER_ENV = { WEBHOOKS_ALLOW_PRIVATE: "1" };

/** Runs a test agent into suspension in a child process that SIGKILLs itself right after the write. */
function suspendInChildThatDies(databaseUrl: string, resource: string): Promise<NodeJS.Signals | null> {
  const child = spawn(
    process.execPath,
    [...childCommand("suspend-in-child"), databaseUrl, "teller", "transfer 7 from child to parent", `t-${resource}`, resource],
    { env: { ...process.env, APPROVALS_FAILPOINT: "after-waiting-snapshot-written" }, stdio: "ignore" },
  );
  return new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
}

describe.each(["sqlite", "postgres"] as const)("webhooks across processes on %s", { timeout: 240_000 }, (kind) => {
  const database = useTestDatabase(kind);
  const servers: ConsoleServer[] = [];
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  it("delivers a call whose writer was killed right after the snapshot write, once a console runs", async () => {
    const hooks = await startWebhookReceiver();
    receivers.push(hooks);
    const { secret } = await createEndpoint(
      { url: hooks.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" },
      database.url,
    );
    const resource = `cust_${randomUUID()}`;
    expect(await suspendInChildThatDies(database.url, resource)).toBe("SIGKILL");

    servers.push(await startConsoleServer(database.url, SERVER_ENV));
    const [request] = await hooks.waitFor(1);
    const event = new Webhook(secret).verify(request!.body, request!.headers) as { type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({ type: "call.waiting", data: { agentId: "teller", resourceId: resource, toolName: "transfer" } });
  });

  it("two console servers deliver each event exactly once", async () => {
    const hooks = await startWebhookReceiver();
    receivers.push(hooks);
    await createEndpoint({ url: hooks.url, eventTypes: ["call.waiting"], slack: false, createdBy: "admin@test" }, database.url);
    servers.push(...(await Promise.all([startConsoleServer(database.url, SERVER_ENV), startConsoleServer(database.url, SERVER_ENV)])));

    const latencies: number[] = [];
    const runs = [];
    for (const order of ["ORD-9501", "ORD-9502", "ORD-9503", "ORD-9504"]) {
      const seen = hooks.received.length;
      const run = await suspendDemoRun(database.url, "refunds", refundRequest(order));
      const suspendedAt = Date.now();
      const arrived = (await hooks.waitFor(seen + 1)).at(-1)!;
      latencies.push(arrived.at - suspendedAt);
      runs.push(run);
    }
    // Long enough for a second delivery by the other server to show up, were there one.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const runIds = hooks.received.map((request) => (JSON.parse(request.body) as { data: { runId: string } }).data.runId);
    expect(runIds.sort()).toEqual(runs.map((run) => run.runId).sort());
    expect(new Set(hooks.received.map((request) => request.headers["webhook-id"])).size).toBe(runs.length);
    console.log(`[latency] ${kind}: suspend → webhook received, ms: ${latencies.join(", ")} (default poll, every second)`);
  });
});
