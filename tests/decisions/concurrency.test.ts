/**
 * One decision per tool call across reviewers and server instances: real `next start` processes on
 * one database, concurrent HTTP requests, the demo agent's real tool. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { startConsoleServer, postDecision, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("one decision per tool call on %s", (kind) => {
  let database: TestDatabase;
  let servers: ConsoleServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    servers = await Promise.all([startConsoleServer(database.url), startConsoleServer(database.url)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await disconnectDb(database.url);
    await database.drop();
  });

  it("20 concurrent approvals over two servers: one wins, the tool runs once, 19 are told who won", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-2020"));
    const accounts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createTestAccount(database.url, "reviewer", `reviewer-${String(i + 1).padStart(2, "0")}-${kind}`),
      ),
    );
    const cookies = await Promise.all(accounts.map((account) => sessionCookie(database.url, account)));
    const reviewers = accounts.map((account) => account.email);

    const responses = await Promise.all(
      cookies.map((cookie, i) => postDecision(servers[i % 2]!, cookie, { action: "approve", ...run.ref })),
    );

    const winners = responses.filter((response) => response.status === 200);
    const losers = responses.filter((response) => response.status !== 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.body.data).toMatchObject({ action: "approve", answer: "Refund re_ord2020 issued: 42.5 EUR for order ORD-2020." });
    const winner = reviewers[responses.indexOf(winners[0]!)]!;
    expect(losers).toHaveLength(19);
    for (const loser of losers) {
      if (loser.status !== 409)
        console.log(
          "UNEXPECTED",
          JSON.stringify(loser.body),
          servers
            .map((s) => s.output())
            .join("\n")
            .slice(-4000),
        );
      expect(loser.status).toBe(409);
      expect(loser.body.error).toMatchObject({
        code: "already_decided",
        message: expect.stringContaining(`${winner} already approved this tool call at `),
        priorDecision: { reviewer: winner, action: "approve", decidedAt: expect.any(String) },
      });
    }

    const db = await getDb(database.url);
    expect(await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
    expect(await db.workflowSnapshot.count({ where: { runId: run.runId } })).toBe(0);
    const audit = await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } });
    expect(new Set(audit.map((event) => event.reviewer))).toEqual(new Set(reviewers));
    expect(audit.filter((e) => e.outcome === "conflict")).toHaveLength(19);
    expect(audit.filter((e) => e.outcome === "recorded").map((e) => e.reviewer)).toEqual([winner]);
    expect(audit.filter((e) => e.outcome === "applied").map((e) => e.reviewer)).toEqual([winner]);
  });

  it("a decision made on one server is seen by the other", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-3030"));
    const [first, second] = servers as [ConsoleServer, ConsoleServer];
    const support = await createTestAccount(database.url, "support", `support-${kind}`);
    const supportCookie = await sessionCookie(database.url, support);
    const listOn = async (server: ConsoleServer) =>
      (await (await fetch(`${server.url}/api/runs?resourceId=${run.resource}`, { headers: { cookie: supportCookie } })).json()) as {
        data: { total: number };
      };
    expect((await listOn(second)).data.total).toBe(1);

    const [ada, grace] = await Promise.all([
      createTestAccount(database.url, "reviewer", `Ada-${kind}`),
      createTestAccount(database.url, "admin", `Grace-${kind}`),
    ]);
    expect((await postDecision(first, await sessionCookie(database.url, ada), { action: "approve", ...run.ref })).status).toBe(200);

    expect((await listOn(second)).data.total).toBe(0);
    const late = await postDecision(second, await sessionCookie(database.url, grace), {
      action: "decline",
      ...run.ref,
      reason: "too late",
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({
      code: "already_decided",
      priorDecision: { reviewer: ada.email, action: "approve", state: "applied" },
    });
    expect(await (await getDb(database.url)).toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
  });

  it("answers malformed requests with 400 and changes nothing (anonymous ones with 401: the body is not read)", async () => {
    const post = (cookie?: string) =>
      fetch(`${servers[0]!.url}/api/decisions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        body: "{not json",
      });
    const anonymous = await post();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
    const admin = await createTestAccount(database.url, "admin");
    const response = await post(await sessionCookie(database.url, admin));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: "The request body is not valid JSON." },
    });
    const unknown = await postDecision(servers[0]!, await sessionCookie(database.url, admin), {
      action: "explode",
      runId: "x",
      toolCallId: "y",
    });
    expect(unknown.status).toBe(400);
  });
});
