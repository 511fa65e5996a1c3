/**
 * The rules' admin routes (/api/admin/rules…) at the HTTP level, against a real console server:
 * anonymous callers, support and reviewers are refused and change nothing; an admin gets clear
 * errors (rule_not_found, a pattern the linear-time engine cannot run) and a dry run that changes
 * nothing. Beside tests/auth/access.test.ts, which holds the same checks for every other route.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe("rules routes: access control over HTTP", () => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let run: DemoRun;
  let support: TestAccount;
  let reviewer: TestAccount;
  let supportCookie: string;
  let reviewerCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    [server, run, support, reviewer] = await Promise.all([
      startConsoleServer(database.url),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-8001")),
      createTestAccount(database.url, "support", "Sam"),
      createTestAccount(database.url, "reviewer", "Rita"),
    ]);
    [supportCookie, reviewerCookie] = await Promise.all([sessionCookie(database.url, support), sessionCookie(database.url, reviewer)]);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  async function untouched() {
    const db = await getDb(database.url);
    return {
      snapshots: (await db.workflowSnapshot.findMany({ where: { runId: run.runId }, orderBy: { workflowName: "asc" } })).map(
        (row) => `${row.workflowName}/${row.status}/${row.version}`,
      ),
      decisions: await db.toolCallDecision.count(),
      effects: await db.toolEffect.count(),
      matches: await db.callRuleMatch.count(),
    };
  }

  it("keeps everybody but admins out of the rules routes; an admin gets clear errors for bad rules", async () => {
    const admin = await createTestAccount(database.url, "admin", "Ada");
    const adminCookie = await sessionCookie(database.url, admin);
    const send = (method: string, path: string, cookie: string | undefined, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json", origin: server.url },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const rule = { name: "all refunds", agentId: "refunds", effect: "approve", enabled: true };
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/admin/rules"],
      ["POST", "/api/admin/rules", rule],
      ["POST", "/api/admin/rules/dry-run", { rule }],
      ["GET", "/api/admin/rules/rule_x"],
      ["PUT", "/api/admin/rules/rule_x", rule],
      ["DELETE", "/api/admin/rules/rule_x", {}],
      ["POST", "/api/admin/rules/rule_x/apply", {}],
    ];
    for (const [method, path, body] of routes) {
      expect((await send(method, path, undefined, body)).status, `${method} ${path}`).toBe(401);
      for (const cookie of [supportCookie, reviewerCookie]) {
        const response = await send(method, path, cookie, body);
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(await response.json()).toMatchObject({ ok: false, error: { code: "forbidden" } });
      }
    }
    const db = await getDb(database.url);
    expect(await db.rule.count()).toBe(0);
    const before = await untouched();

    const missing = await send("PUT", "/api/admin/rules/rule_x", adminCookie, rule);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "rule_not_found" } });
    const badPattern = await send("POST", "/api/admin/rules", adminCookie, {
      ...rule,
      conditions: [{ path: "orderId", op: "matches", value: "(a)\\1" }],
    });
    expect(badPattern.status).toBe(400);
    expect(JSON.stringify(await badPattern.json())).toContain("linear-time engine");
    expect(await db.rule.count()).toBe(0);

    // The dry run counts the waiting call and changes nothing.
    const dryRun = await send("POST", "/api/admin/rules/dry-run", adminCookie, { rule });
    expect(await dryRun.json()).toMatchObject({
      ok: true,
      data: {
        waiting: 1,
        matched: 1,
        counts: { approve: 1 },
        calls: [{ runId: run.runId, toolCallId: run.ref.toolCallId, effect: "approve" }],
      },
    });
    const created = await send("POST", "/api/admin/rules", adminCookie, { ...rule, enabled: false });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: string; version: number } };
    expect(data.version).toBe(1);
    expect(await untouched()).toEqual(before);
    const deleted = await send("DELETE", `/api/admin/rules/${data.id}`, adminCookie, {});
    expect(deleted.status).toBe(200);
    expect(await db.rule.count()).toBe(0);
    expect(await db.ruleVersion.count({ where: { ruleId: data.id } })).toBe(2);
  });
});
