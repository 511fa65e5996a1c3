/**
 * Remote mode when the Mastra server's answer never arrives: a proxy between the console and the
 * example Mastra server passes the decision on but swallows the answer, so the server carries it
 * out and the console times out (MASTRA_SERVER_TIMEOUT_MS). The reviewer is told the tool may have
 * run; recovery finds the run finished and records the decision as applied. Real processes, on
 * SQLite and PostgreSQL.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";

/**
 * Forwards everything to `target`, except: the answers to approvals are read and never passed
 * back; the first decline is never passed on at all (as if the server died before reading it).
 */
async function startSwallowingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  let declinesHeld = 0;
  const server = http.createServer((request, response) => {
    if (request.url?.endsWith("/decline-tool-call") && declinesHeld++ === 0) return void request.resume();
    const upstream = http.request(`${target}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      if (request.url?.endsWith("/approve-tool-call")) {
        answer.resume(); // the Mastra server finishes its work; the console hears nothing
        return;
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(["sqlite", "postgres"] as const)("remote mode, no answer from the Mastra server, on %s", (kind) => {
  let database: TestDatabase;
  let mastraServer: MastraServerProcess;
  let proxy: Awaited<ReturnType<typeof startSwallowingProxy>>;
  let consoleServer: ConsoleServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastraServer = await startMastraServer(database.url);
    proxy = await startSwallowingProxy(mastraServer.url);
    consoleServer = await startConsoleServer(database.url, {
      MASTRA_SERVER_URL: proxy.url,
      MASTRA_SERVER_TOKEN: TEST_SERVER_TOKEN,
      MASTRA_SERVER_TIMEOUT_MS: "2000",
      // Long enough for the Mastra server to finish what it was sent before recovery looks at the
      // run (on a loaded machine too); recovery of a run still in progress would release it instead.
      DECISION_LEASE_MS: "6000",
    });
  }, 180_000);

  afterAll(async () => {
    await consoleServer?.stop();
    await proxy?.close();
    await mastraServer?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  const decisionOf = async (ref: { runId: string; toolCallId: string }) =>
    (await getDb(database.url)).toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: ref } });
  const waitForState = async (ref: { runId: string; toolCallId: string }, state: string) => {
    const deadline = Date.now() + 30_000;
    while ((await decisionOf(ref)).state !== state && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    return decisionOf(ref);
  };

  it("a timeout after sending: the reviewer is told the tool may have run; recovery sees the run finished and records it applied", async () => {
    const cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer", `rita-${kind}`));
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9001"));
    const started = Date.now();
    const lost = await postDecision(consoleServer, cookie, { action: "approve", ...run.ref });
    expect(lost.status).toBe(502);
    expect(lost.body.error.message).toMatch(
      /stopped answering after the decision was sent \(no answer within 2 s\): its tool may have run/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);

    const db = await getDb(database.url);
    // The server carries on after the console gave up: its refund is made (once).
    const effectDeadline = Date.now() + 20_000;
    while ((await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })) === 0 && Date.now() < effectDeadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
    const settled = await waitForState(run.ref, "applied");
    expect(settled.state, JSON.stringify(settled)).toBe("applied");
    const audit = await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } });
    expect(audit.map((event) => event.outcome)).toEqual(["recorded", "recovered"]);
    expect(audit[1]!.message).toMatch(/The run had finished/);
    expect(await db.workflowSnapshot.count({ where: { runId: run.runId } })).toBe(0);
  });

  it("a decline that got no answer and did not reach the agent: recovery sends it again (a decline never runs the tool)", async () => {
    const cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer", `dana-${kind}`));
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9002"));
    const lost = await postDecision(consoleServer, cookie, { action: "decline", ...run.ref, reason: "Duplicate" });
    expect(lost.status).toBe(502);
    expect(lost.body.error.message).toMatch(/no answer within 2 s/);
    expect(await (await getDb(database.url)).workflowSnapshot.count({ where: { runId: run.runId } })).toBeGreaterThan(0);

    expect(await waitForState(run.ref, "applied")).toMatchObject({ state: "applied", reason: "Duplicate" });
    const db = await getDb(database.url);
    const audit = await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } });
    expect(audit.map((event) => event.outcome)).toEqual(["recorded", "recovered", "applied"]);
    expect(audit[1]!.message).toMatch(/declining; a decline never runs the tool, so it is carried out again/);
    expect(await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(0);
    expect(await db.workflowSnapshot.count({ where: { runId: run.runId } })).toBe(0);
  });
});
