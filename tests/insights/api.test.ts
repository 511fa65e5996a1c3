/**
 * GET /api/insights against a real console server on both databases: a decision made over HTTP
 * shows in the figures once the server has claimed and carried it out; support reads the same
 * figures without a reviewer's name, in JSON and CSV; anonymous callers are refused; every bad
 * parameter is a 400 that names it and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import type { InsightsDto } from "../../lib/insights/dto.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("GET /api/insights on %s", (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let run: DemoRun;
  let reviewer: TestAccount;
  let reviewerCookie: string;
  let supportCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    let support: TestAccount;
    [server, run, reviewer, support] = await Promise.all([
      startConsoleServer(database.url, { WEBHOOKS_POLL_MS: "200" }),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-4301")),
      createTestAccount(database.url, "reviewer", "Rita"),
      createTestAccount(database.url, "support", "Sam"),
    ]);
    [reviewerCookie, supportCookie] = await Promise.all([sessionCookie(database.url, reviewer), sessionCookie(database.url, support)]);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  const read = (query: string, cookie?: string) => fetch(`${server.url}/api/insights${query}`, { headers: cookie ? { cookie } : {} });
  async function insights(query: string, cookie: string): Promise<InsightsDto> {
    const response = await read(query, cookie);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: InsightsDto }).data;
  }
  async function until(check: () => Promise<boolean>, what: string) {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`Timed out waiting until ${what}`);
  }

  it("counts a decision made over HTTP, and shows it to support without the reviewer's name", { timeout: 120_000 }, async () => {
    await until(async () => (await insights("?period=7", reviewerCookie)).waited === 1, "the server claimed the waiting call");
    const decided = await postDecision(server, reviewerCookie, { action: "approve", ...run.ref });
    expect(decided.status).toBe(200);
    await until(async () => (await insights("?period=7", reviewerCookie)).outcomes.approved === 1, "the approval was counted");
    const seen = await insights("?period=7&agentId=refunds", reviewerCookie);
    expect(seen.outcomes.by.person).toBe(1);
    expect(seen.reviewers.map((row) => row.reviewer)).toEqual([reviewer.email]);
    expect(seen.byTool).toHaveLength(1);

    const anonymous = await insights("?period=7", supportCookie);
    expect(anonymous.anonymous).toBe(true);
    expect(anonymous.outcomes.approved).toBe(1);
    expect(anonymous.reviewers.map((row) => [row.reviewer, row.label])).toEqual([[null, "Reviewer 1"]]);
    expect(JSON.stringify(anonymous)).not.toContain(reviewer.email);
    const csv = await read("?period=7&format=csv", supportCookie);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe("panel,agent,tool,risk,reviewer,date,figure,value");
    expect(text).toContain("calls,,,,,,approved,1");
    expect(text).not.toContain(reviewer.email);
  });

  it("refuses anonymous callers and every bad parameter, naming it", async () => {
    expect((await read("?period=7")).status).toBe(401);
    const db = await getDb(database.url);
    const before = await db.callReview.count();
    for (const [query, field] of [
      ["?period=1000", "period"],
      ["?period=7&from=2026-01-01&to=2026-01-02", "period"],
      ["?from=2026-01-01", "to"],
      ["?from=2026-02-30&to=2026-03-01", "from"],
      ["?from=2026-03-01&to=2026-01-01", "to"],
      ["?from=2024-01-01&to=2026-01-01", "to"],
      ["?timeZone=Mars%2FOlympus", "timeZone"],
      ["?risk=extreme", "risk"],
      ["?format=xml", "format"],
      ["?agentId=" + "a".repeat(300), "agentId"],
      ["?agentId=a%00b", "agentId"],
      ["?toolName=%ED%A0%80", ""],
      ["?sort=desc", "sort"],
    ] as const) {
      const response = await read(query, reviewerCookie);
      const body = (await response.json()) as { ok: boolean; error: { code: string; message: string; issues?: { path: string }[] } };
      expect(response.status, query).toBe(400);
      expect(body.error.code, query).toBe("invalid_input");
      if (field) expect(JSON.stringify(body.error), query).toContain(field);
    }
    expect(await db.callReview.count()).toBe(before);
  });
});
