/**
 * What a reviewer sees of a call marked expired, from a real console server: its run page says when
 * it expired and offers no decision, and the queue's API lists it as expired (its run still waits).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { expireOverdueCalls } from "../../lib/decisions/expire.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe("a call marked expired, as the console shows it", () => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let cookie: string;
  let run: DemoRun;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const db = await getDb(database.url);
    await db.expiryRule.create({
      data: { agentId: "refunds", toolName: "", afterMinutes: 30, mode: "mark", updatedBy: "admin@test.example", updatedAt: new Date() },
    });
    run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7101"));
    expect(await expireOverdueCalls(database.url, new Date(Date.now() + 31 * 60_000))).toBe(1);
    server = await startConsoleServer(database.url);
    cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer", "Rita"));
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("shows on the run page when it expired, with nothing to decide", async () => {
    const page = await fetch(`${server.url}/runs/${encodeURIComponent(run.runId)}`, { headers: { cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    // The time in the reader's language and zone (English and UTC here): "Dec 4, 2026, 02:03:04 PM UTC".
    expect(html).toMatch(
      /Expired at [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d:\d\d [AP]M UTC \(marked by its expiry rule; the agent was not told\)/,
    );
    expect(html).toContain("it can no longer be decided here");
    expect(html).not.toMatch(/<button[^>]*>Approve<\/button>/);
  });

  it("lists it in the queue as expired, its run still waiting", async () => {
    const response = await fetch(`${server.url}/api/queue?resourceId=${encodeURIComponent(run.resource)}`, { headers: { cookie } });
    const body = (await response.json()) as { data: { threads: Array<{ runs: Array<{ toolCalls: Array<Record<string, unknown>> }> }> } };
    const call = body.data.threads[0]!.runs[0]!.toolCalls[0]!;
    expect(call).toMatchObject({ toolCallId: run.ref.toolCallId, markedExpired: { reason: "expired: no reviewer within 30 min" } });
    expect(call.expiresAt).toBeUndefined();
  });
});
