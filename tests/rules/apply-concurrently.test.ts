/**
 * Applying a rule to the calls already waiting, several times at the same moment (two admins, two
 * console servers, one database), over HTTP on SQLite and PostgreSQL: every request answers 200
 * with what it decided itself, the answers add up to the matching calls, and each call is decided
 * (and its tool run) once. A call the rule does not match is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

const CALLS = 6;
const APPLIES = 4;

describe.each(["sqlite", "postgres"] as const)("applying a rule concurrently on %s", { timeout: 240_000 }, (kind) => {
  let database: TestDatabase;
  let servers: ConsoleServer[] = [];
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const admin = await createTestAccount(database.url, "admin", "Ada");
    [servers, cookie] = await Promise.all([
      Promise.all([startConsoleServer(database.url), startConsoleServer(database.url)]),
      sessionCookie(database.url, admin),
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await disconnectDb(database.url);
    await database.drop();
  });

  const send = async (server: ConsoleServer, method: string, path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { cookie, "content-type": "application/json", origin: server.url },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { ok: boolean; data?: any; error?: any } };
  };

  it(`${APPLIES} applies at once: all 200, ${CALLS} calls decided once between them`, async () => {
    const runs: DemoRun[] = [];
    for (let i = 0; i < CALLS; i++) runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(`ORD-91${i}`, "12.00 EUR")));
    const other = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-92"));
    // Disabled: only the applies decide (a server's loop leaves the calls alone).
    const created = await send(servers[0]!, "POST", "/api/admin/rules", {
      name: "small refunds",
      agentId: "refunds",
      effect: "approve",
      enabled: false,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ruleId = created.body.data.id as string;

    const answers = await Promise.all(
      Array.from({ length: APPLIES }, (_, i) => send(servers[i % 2]!, "POST", `/api/admin/rules/${ruleId}/apply`, {})),
    );
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data).toMatchObject({ ruleId, version: 1, more: false });
    }
    const decided = answers.map((answer) => answer.body.data.decided as number);
    expect(
      decided.reduce((sum, count) => sum + count, 0),
      JSON.stringify(decided),
    ).toBe(CALLS);

    const db = await getDb(database.url);
    const decisions = await db.toolCallDecision.findMany({ where: { runId: { in: [...runs, other].map((run) => run.runId) } } });
    expect(decisions.map((decision) => [decision.toolCallId, decision.action, decision.state, decision.ruleId]).sort()).toEqual(
      runs.map((run) => [run.ref.toolCallId, "approve", "applied", ruleId]).sort(),
    );
    const effects = await db.toolEffect.findMany({ where: { resourceId: { in: runs.map((run) => run.resource) } } });
    expect(effects.map((effect) => effect.toolCallId).sort()).toEqual(runs.map((run) => run.ref.toolCallId).sort());
    expect(await db.callRuleMatch.count({ where: { runId: { in: runs.map((run) => run.runId) }, settledAt: null } })).toBe(0);
  });
});
