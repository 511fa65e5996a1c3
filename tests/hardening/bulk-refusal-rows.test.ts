/**
 * What one reviewer's bulk requests can write to the history, against real console servers on
 * SQLite and PostgreSQL. Before, every refused call of a bulk request was its own row while the
 * request counted once against the refusal budget: 100 unknown ids a request, 30 requests a minute,
 * 3,000 rows. Now the calls that name nothing are one row per request, and a real call's refusal is
 * written once per reviewer, call and code (lib/decisions/bulk-refusals.ts).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { shippingRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

const REFUSALS_PER_MINUTE = 4;

describe.each(["sqlite", "postgres"] as const)("a bulk request's refused calls on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let shipping: DemoRun;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, suspended, reviewer] = await Promise.all([
      startConsoleServer(database.url, { REFUSALS_PER_MINUTE: String(REFUSALS_PER_MINUTE) }),
      suspendDemoRun(database.url, "shipping", shippingRequest("ORD-6201")),
      createTestAccount(database.url, "reviewer", "Bulky"),
    ]);
    [server, shipping] = [started, suspended];
    cookie = await sessionCookie(database.url, reviewer);
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  const bulk = async (calls: Array<{ runId: string; toolCallId: string }>) => {
    const response = await fetch(`${server.url}/api/decisions/bulk`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie },
      body: JSON.stringify({ action: "approve", calls }),
    });
    return { status: response.status, body: (await response.json()) as { ok: boolean; data?: any; error?: any } };
  };
  const rows = async () =>
    (await getDb(database.url)).auditEvent.findMany({ where: { reviewer: "bulky@test.example" }, orderBy: { id: "asc" } });
  const unknownCalls = (count: number) =>
    Array.from({ length: count }, () => ({ runId: randomUUID(), toolCallId: `call_${randomUUID()}` }));

  it("writes a real call's refusal once and the calls naming nothing as one row per request, then turns the client away", async () => {
    const db = await getDb(database.url);
    const decisionsBefore = await db.toolCallDecision.count();
    const statuses: number[] = [];
    const counts: unknown[] = [];
    // The same real call (it waits for data: approve is the wrong kind) and 99 fresh unknown ids, again and again.
    for (let i = 0; i < REFUSALS_PER_MINUTE + 2; i++) {
      const answer = await bulk([shipping.ref, ...unknownCalls(99)]);
      statuses.push(answer.status);
      if (answer.body.ok) counts.push(answer.body.data.counts);
    }
    expect(statuses).toEqual([...Array(REFUSALS_PER_MINUTE).fill(200), 429, 429]);
    expect(counts).toEqual(
      Array(REFUSALS_PER_MINUTE).fill({ applied: 0, awaiting_approvals: 0, already_decided: 0, refused: 100, failed: 0 }),
    );

    const written = await rows();
    // One wrong_kind row for the real call (not one per request), one row per request for the 99 others,
    // and one row saying the client was turned away.
    expect(written.filter((row) => row.runId === shipping.runId).map((row) => [row.code, row.toolName])).toEqual([
      ["wrong_kind", "chooseShippingAddress"],
    ]);
    const perRequest = written.filter((row) => row.runId === "" && row.batchId);
    expect(perRequest).toHaveLength(REFUSALS_PER_MINUTE);
    for (const row of perRequest) {
      expect(row).toMatchObject({ outcome: "refused", code: "run_not_found", action: "approve" });
      expect(row.message).toMatch(/^Bulk approve: 99 of 100 calls name no waiting call: .+ and 94 more\.$/);
      expect(row.message!.length).toBeLessThan(1024);
    }
    expect(written.filter((row) => row.code === "rate_limited")).toHaveLength(1);
    expect(written).toHaveLength(1 + REFUSALS_PER_MINUTE + 1);
    // Nothing was decided; the shipping call still waits.
    expect(await db.toolCallDecision.count()).toBe(decisionsBefore);
    expect(await db.workflowSnapshot.count({ where: { runId: shipping.runId, status: "suspended" } })).toBeGreaterThan(0);
  });
});
