/**
 * Remote mode when the Mastra server goes away: killed mid-decision (SIGKILL right after the demo
 * tool's effect is written, the `after-effect` failpoint) or down before one is sent. The reviewer
 * is told; recovery settles what was sent; nothing is recorded as applied that was not. Real
 * processes (the example Mastra server, a `server.mjs` console), on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";

/** Short, so the console's own periodic recovery takes a lost decision over within the test. */
const LEASE_MS = 1_500;

describe.each(["sqlite", "postgres"] as const)("remote mode, Mastra server stopped, on %s", (kind) => {
  let database: TestDatabase;
  let mastraServer: MastraServerProcess;
  let consoleServer: ConsoleServer;
  let cookie: string;

  const decisionOf = async (ref: { runId: string; toolCallId: string }) =>
    (await getDb(database.url)).toolCallDecision.findUnique({ where: { runId_toolCallId: ref } });
  const auditOf = async (runId: string) =>
    (await (await getDb(database.url)).auditEvent.findMany({ where: { runId }, orderBy: { id: "asc" } })).map((event) => event.outcome);
  const effectsOf = async (toolCallId: string) => (await getDb(database.url)).toolEffect.count({ where: { toolCallId } });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastraServer = await startMastraServer(database.url, { env: { APPROVALS_FAILPOINT: "after-effect" } });
    consoleServer = await startConsoleServer(database.url, {
      MASTRA_SERVER_URL: mastraServer.url,
      MASTRA_SERVER_TOKEN: TEST_SERVER_TOKEN,
      DECISION_LEASE_MS: String(LEASE_MS),
    });
    cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer", `rita-${kind}`));
  }, 180_000);

  afterAll(async () => {
    await consoleServer?.stop();
    await mastraServer?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("killed after the tool ran: the reviewer is told it may have run; recovery releases it as interrupted; a confirmed approval finishes it", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8001"));
    const lost = await postDecision(consoleServer, cookie, { action: "approve", ...run.ref });
    await mastraServer.exited();
    expect(lost.status).toBe(502);
    expect(lost.body.error.message).toMatch(/stopped answering after the decision was sent \(.+\): its tool may have run/);
    expect(await effectsOf(run.ref.toolCallId)).toBe(1);
    expect((await decisionOf(run.ref))?.state).not.toBe("applied");

    await mastraServer.start({ APPROVALS_FAILPOINT: "" });
    // The console's periodic recovery, once the lease ran out: the run still waits on the call.
    const deadline = Date.now() + 20_000;
    while ((await decisionOf(run.ref))?.state !== "released" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await decisionOf(run.ref)).toMatchObject({ state: "released", error: "interrupted" });
    expect(await auditOf(run.runId)).toEqual(["recorded", "interrupted"]);
    const listed = (await (await fetch(`${consoleServer.url}/api/runs?resourceId=${run.resource}`, { headers: { cookie } })).json()) as {
      data: { runs: Array<{ toolCalls: Array<{ interrupted?: unknown }> }> };
    };
    expect(listed.data.runs[0]!.toolCalls[0]!.interrupted).toBeTruthy();

    expect((await postDecision(consoleServer, cookie, { action: "approve", ...run.ref })).status).toBe(428);
    const confirmed = await postDecision(consoleServer, cookie, { action: "approve", ...run.ref, confirmMayHaveRun: true });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    // The demo tool is idempotent on the call id: the refund of the first attempt is not made twice.
    expect(await effectsOf(run.ref.toolCallId)).toBe(1);
    expect(await (await getDb(database.url)).workflowSnapshot.count({ where: { runId: run.runId } })).toBe(0);
  });

  it("down before the decision is sent: the reviewer is told, nothing is applied, the call is decided once the server is back", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8002"));
    await mastraServer.stop();
    const refused = await postDecision(consoleServer, cookie, { action: "approve", ...run.ref });
    expect(refused.status).toBe(502);
    expect(refused.body.error.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
    expect(await effectsOf(run.ref.toolCallId)).toBe(0);
    expect((await decisionOf(run.ref))?.state ?? "none").not.toMatch(/applied|applying|recorded/);

    await mastraServer.start({ APPROVALS_FAILPOINT: "" });
    const approved = await postDecision(consoleServer, cookie, { action: "approve", ...run.ref });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await effectsOf(run.ref.toolCallId)).toBe(1);
    expect((await auditOf(run.runId)).at(-1)).toBe("applied");
  });
});
