/**
 * Remote mode end to end: the example Mastra server (a real process, Mastra's Hono adapter, the demo
 * agents) and real console servers (`server.mjs` on the production build) with MASTRA_SERVER_URL and
 * no agents of their own, on one database. On SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { createTestMastra, suspendRun } from "../helpers/agents.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";

describe.each(["sqlite", "postgres"] as const)("remote mode on %s", (kind) => {
  let database: TestDatabase;
  let mastraServer: MastraServerProcess;
  let consoles: ConsoleServer[] = [];
  let cookie: string;
  let reviewer: string;

  const remoteEnv = (token = TEST_SERVER_TOKEN) => ({ MASTRA_SERVER_URL: mastraServer.url, MASTRA_SERVER_TOKEN: token });
  const auditOf = async (runId: string) =>
    (await (await getDb(database.url)).auditEvent.findMany({ where: { runId }, orderBy: { id: "asc" } })).map((event) => event.outcome);
  const effectsOf = async (toolCallId: string) => (await getDb(database.url)).toolEffect.count({ where: { toolCallId } });
  const snapshotsOf = async (runId: string) => (await getDb(database.url)).workflowSnapshot.count({ where: { runId } });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastraServer = await startMastraServer(database.url);
    consoles = await Promise.all([startConsoleServer(database.url, remoteEnv()), startConsoleServer(database.url, remoteEnv())]);
    const account = await createTestAccount(database.url, "reviewer", `rita-${kind}`);
    reviewer = account.email;
    cookie = await sessionCookie(database.url, account);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(consoles.map((server) => server.stop()));
    await mastraServer?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("approves, declines with a reason and resumes through the Mastra server, each tool effect once, the audit complete", async () => {
    const [console1] = consoles as [ConsoleServer];
    const refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7001"));
    const approved = await postDecision(console1, cookie, { action: "approve", ...refund.ref });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data).toMatchObject({ action: "approve", answer: "Refund re_ord7001 issued: 42.5 EUR for order ORD-7001." });
    expect(await effectsOf(refund.ref.toolCallId)).toBe(1);
    expect(await snapshotsOf(refund.runId)).toBe(0);
    expect(await auditOf(refund.runId)).toEqual(["recorded", "applied"]);
    // Carried out by the Mastra server, not by agents of the console's own.
    expect(mastraServer.output()).toMatch(/--> POST \/api\/agents\/refunds\/approve-tool-call 200/);

    const declinedRefund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7002"));
    const declined = await postDecision(console1, cookie, { action: "decline", ...declinedRefund.ref, reason: "Duplicate ticket" });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.data.answer).toContain("Duplicate ticket");
    expect(await effectsOf(declinedRefund.ref.toolCallId)).toBe(0);
    expect(mastraServer.output()).toMatch(/--> POST \/api\/agents\/refunds\/decline-tool-call 200/);
    expect(await snapshotsOf(declinedRefund.runId)).toBe(0);
    const declineAudit = await (
      await getDb(database.url)
    ).auditEvent.findMany({ where: { runId: declinedRefund.runId }, orderBy: { id: "asc" } });
    expect(declineAudit.map((event) => [event.outcome, event.reviewer, event.reason])).toEqual([
      ["recorded", reviewer, "Duplicate ticket"],
      ["applied", reviewer, "Duplicate ticket"],
    ]);

    const shipping = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-7003"));
    // Checked in the console against the schema the run's snapshot records: never sent.
    const invalid = await postDecision(console1, cookie, { action: "resume", ...shipping.ref, resumeData: '{"addressId": 7}' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatchObject({
      code: "invalid_resume_data",
      message: expect.stringContaining("addressId must be a string"),
    });
    expect(await snapshotsOf(shipping.runId)).toBeGreaterThan(0);
    const resumed = await postDecision(console1, cookie, { action: "resume", ...shipping.ref, resumeData: '{"addressId":"addr_home"}' });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.data.answer).toBe("Order ORD-7003 will ship to Home: 1 Main St, Springfield.");
    expect(await effectsOf(shipping.ref.toolCallId)).toBe(1);
    expect(mastraServer.output().match(/--> POST \/api\/agents\/shipping\/resume-stream 200/g)).toHaveLength(1);
    expect(await auditOf(shipping.runId)).toEqual(["refused", "recorded", "applied"]);
  });

  it("20 concurrent approvals over two remote-mode consoles: one applied, 19 told who won, the tool runs once", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7020"));
    const accounts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTestAccount(database.url, "reviewer", `remote-${i}-${kind}`)),
    );
    const cookies = await Promise.all(accounts.map((account) => sessionCookie(database.url, account)));
    const serverLogBefore = mastraServer.output().length;
    const responses = await Promise.all(cookies.map((each, i) => postDecision(consoles[i % 2]!, each, { action: "approve", ...run.ref })));

    const winners = responses.filter((response) => response.status === 200);
    expect(winners, JSON.stringify(responses.map((response) => response.body))).toHaveLength(1);
    const winner = accounts[responses.indexOf(winners[0]!)]!.email;
    const losers = responses.filter((response) => response.status !== 200);
    expect(losers).toHaveLength(19);
    for (const loser of losers) {
      expect(loser.status).toBe(409);
      expect(loser.body.error).toMatchObject({ code: "already_decided", priorDecision: { reviewer: winner, action: "approve" } });
    }
    expect(await effectsOf(run.ref.toolCallId)).toBe(1);
    // The first-wins record kept 19 of them from ever reaching the Mastra server.
    expect(
      mastraServer
        .output()
        .slice(serverLogBefore)
        .match(/--> POST \/api\/agents\/refunds\/approve-tool-call/g),
    ).toHaveLength(1);
    const audit = await auditOf(run.runId);
    expect(audit.filter((outcome) => outcome === "conflict")).toHaveLength(19);
    expect(audit.filter((outcome) => outcome === "applied")).toHaveLength(1);
  });

  it("a call approved directly through the Mastra server's API leaves the queue, and the history says it was decided outside the console", async () => {
    const [console1] = consoles as [ConsoleServer];
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7050"));
    const listed = async () =>
      (
        (await (await fetch(`${console1.url}/api/runs?resourceId=${run.resource}`, { headers: { cookie } })).json()) as {
          data: { total: number };
        }
      ).data.total;
    expect(await listed()).toBe(1);

    // What Mastra Studio or the team's own code does: the server's route, without the console.
    const direct = await fetch(`${mastraServer.url}/api/agents/refunds/approve-tool-call`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TEST_SERVER_TOKEN}` },
      body: JSON.stringify(run.ref),
    });
    expect(direct.status).toBe(200);
    await direct.text(); // the continued run, read to its end
    expect(await listed()).toBe(0);

    const history = await (await fetch(`${console1.url}/history?resourceId=${run.resource}`, { headers: { cookie } })).text();
    expect(history).toContain("decided outside the console");
    expect(history).toContain("issueRefund");

    const late = await postDecision(console1, cookie, { action: "approve", ...run.ref });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "decided_outside", message: expect.stringMatching(/decided outside the console at /) });
    expect(await effectsOf(run.ref.toolCallId)).toBe(1);
    expect(await auditOf(run.runId)).toEqual(["decided-outside", "refused"]);
  });

  it("wrong credentials: the reviewer is told, nothing is recorded as applied, the run still waits", async () => {
    const wrong = await startConsoleServer(database.url, remoteEnv("not-the-token"));
    try {
      const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7030"));
      const refused = await postDecision(wrong, cookie, { action: "approve", ...run.ref });
      expect(refused.status).toBe(502);
      expect(refused.body.error.message).toMatch(/refused the console's credentials \(401: Unauthorized\): check MASTRA_SERVER_TOKEN/);
      expect(await effectsOf(run.ref.toolCallId)).toBe(0);
      const db = await getDb(database.url);
      expect(await db.toolCallDecision.count({ where: { runId: run.runId, state: "applied" } })).toBe(0);
      expect(await auditOf(run.runId)).not.toContain("applied");
      const listed = await fetch(`${wrong.url}/api/runs?resourceId=${run.resource}`, { headers: { cookie } });
      expect(((await listed.json()) as { data: { total: number } }).data.total).toBe(1);
      // The same call is decidable through a console with the right token.
      expect((await postDecision(consoles[0]!, cookie, { action: "approve", ...run.ref })).status).toBe(200);
      expect(await effectsOf(run.ref.toolCallId)).toBe(1);
    } finally {
      await wrong.stop();
    }
  });

  it("a run of an agent the Mastra server does not serve is listed, and deciding it is refused with the reason", async () => {
    const mastra = await createTestMastra(database.url);
    const resource = `cust_${randomUUID()}`;
    const call = await suspendRun(mastra, "teller", "transfer 10 from a to b", { thread: `t-${randomUUID()}`, resource });
    const listed = await fetch(`${consoles[0]!.url}/api/runs?resourceId=${resource}`, { headers: { cookie } });
    expect(((await listed.json()) as { data: { total: number } }).data.total).toBe(1);
    const refused = await postDecision(consoles[0]!, cookie, { action: "approve", runId: call.runId, toolCallId: call.toolCallId });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({
      code: "unknown_agent",
      message: expect.stringMatching(
        /belongs to agent "teller", which the Mastra server at http:\/\/127\.0\.0\.1:\d+ does not serve \(it serves .*"refunds"/,
      ),
    });
    expect(await (await getDb(database.url)).toolCallDecision.count({ where: { runId: call.runId } })).toBe(0);
    expect(await auditOf(call.runId)).toEqual(["refused"]);
  });
});
