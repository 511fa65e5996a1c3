/**
 * Decline and suggest over HTTP (POST /api/decisions, "action": "decline_and_suggest"), against a
 * real console server: arguments the tool's schema refuses get 422 invalid_suggestion and bad JSON
 * 400 invalid_input, changing nothing; a good suggestion declines the call (the agent calls again
 * with the suggested arguments) and the server's own loop approves that call as suggested.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe("decline and suggest over the JSON API", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let run: DemoRun;
  let cookie: string;
  let email: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const [started, suspended, reviewer] = await Promise.all([
      startConsoleServer(database.url),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-6001", "80.00 EUR")),
      createTestAccount(database.url, "reviewer", "Rita"),
    ]);
    [server, run, email] = [started, suspended, reviewer.email];
    cookie = await sessionCookie(database.url, reviewer);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("refuses what does not fit, then declines with the suggestion and the re-call is approved as suggested", async () => {
    const db = await getDb(database.url);
    const asked = (await findSuspendedRun(run.runId, database.url))!.toolCalls[0]!.args as Record<string, unknown>;
    const send = (args: string) => postDecision(server, cookie, { action: "decline_and_suggest", ...run.ref, args, reason: "Half" });

    expect(await send(JSON.stringify({ ...asked, amount: "lots" }))).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_suggestion", issues: [expect.objectContaining({ path: "amount" })] } },
    });
    expect(await send("[1]")).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    expect(await send("{")).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    expect(await db.suggestion.count()).toBe(0);
    expect(await db.toolCallDecision.count()).toBe(0);

    const declined = await send(JSON.stringify({ ...asked, amount: 40 }));
    expect(declined).toMatchObject({ status: 200, body: { ok: true, data: { action: "decline", runState: "waiting-again" } } });
    // The server's loop claims the agent's new call and approves it.
    await expect
      .poll(() => db.toolCallDecision.findFirst({ where: { runId: run.runId, action: "approve" } }), { timeout: 30_000 })
      .toMatchObject({ state: "applied", reviewer: `suggestion by ${email}` });
    const effects = await db.toolEffect.findMany({ where: { resourceId: run.resource } });
    expect(effects.map((effect) => JSON.parse(effect.input).amount)).toEqual([40]);
  });
});
