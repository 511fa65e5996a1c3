/**
 * What a hostile or careless client can make a console server do with refused requests, against real
 * `next start` servers on SQLite and PostgreSQL: refusals leave a small, bounded trace and are
 * rate-limited per client; bodies are refused by size before they are read; NUL characters and lone
 * surrogates are refused at the edge with 400, never a 500.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { callServerAction, postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

const REFUSALS_PER_MINUTE = 6;
const MB = "x".repeat(1024 * 1024);
/** Big enough to matter, small enough for loopback's socket buffers: the server may answer before reading it. */
const FIELD = "x".repeat(60 * 1024);

/**
 * Starts a body declared as `declared` bytes (or chunked, with null), sends only its first 64 KiB and
 * never ends it; resolves with the status the server answers with meanwhile, or "timeout".
 */
function partialPost(server: ConsoleServer, headers: Record<string, string>, declared: number | null, timeoutMs = 10_000) {
  return new Promise<number | "timeout">((resolve) => {
    const request = httpRequest(new URL("/api/decisions", server.url), {
      method: "POST",
      agent: false,
      headers: {
        "content-type": "application/json",
        origin: server.url,
        ...headers,
        ...(declared === null ? {} : { "content-length": String(declared) }),
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      resolve("timeout");
    }, timeoutMs);
    request.on("response", (response) => {
      clearTimeout(timer);
      response.resume();
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    request.on("error", () => undefined);
    request.write(`{"action":"approve","runId":"${"x".repeat(64 * 1024)}`);
  });
}

/** Posts `body` whole, and resolves with the status as soon as the server answers (it may answer before reading it). */
function rawPost(server: ConsoleServer, body: string, cookie?: string) {
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(new URL("/api/decisions", server.url), {
      method: "POST",
      agent: false,
      headers: {
        "content-type": "application/json",
        origin: server.url,
        "content-length": String(Buffer.byteLength(body)),
        ...(cookie ? { cookie } : {}),
      },
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", (error) => (request.destroyed ? undefined : reject(error)));
    request.end(body);
  });
}

describe.each(["sqlite", "postgres"] as const)("refused requests on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let run: DemoRun;
  let cookie: string;
  let otherCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, suspended, reviewer, other] = await Promise.all([
      startConsoleServer(database.url, { REFUSALS_PER_MINUTE: String(REFUSALS_PER_MINUTE) }),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-6101")),
      createTestAccount(database.url, "reviewer", "Flo"),
      createTestAccount(database.url, "reviewer", "Nul"),
    ]);
    [server, run] = [started, suspended];
    [cookie, otherCookie] = await Promise.all([sessionCookie(database.url, reviewer), sessionCookie(database.url, other)]);
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  /** Characters held by the audit log's rows, the measure of how much a flood could store. */
  async function auditFootprint(where: { reviewer: string }) {
    const rows = await (await getDb(database.url)).auditEvent.findMany({ where });
    const sizes = rows.map((row) =>
      Object.values(row).reduce<number>((sum, value) => sum + (typeof value === "string" ? value.length : 8), 0),
    );
    return { rows: rows.length, largest: Math.max(0, ...sizes), total: sizes.reduce((a, b) => a + b, 0) };
  }

  it("keeps an anonymous refusal small: ids cut short, no payloads", async () => {
    const { result } = await callServerAction(server, "declineToolCall", [
      { runId: "r".repeat(100_000), toolCallId: "c", reason: MB.slice(0, 100_000) },
    ]);
    expect(result).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
    const [row] = await (await getDb(database.url)).auditEvent.findMany({ where: { reviewer: "anonymous" } });
    expect(row).toMatchObject({
      action: "decline",
      code: "unauthenticated",
      runId: "r".repeat(128),
      reason: null,
      resumeData: null,
      args: null,
    });
    // Larger arguments are not even read whole: Next refuses the body before the action runs.
    const db = await getDb(database.url);
    const rows = await db.auditEvent.count();
    const oversized = await callServerAction(server, "declineToolCall", [{ runId: "r".repeat(300 * 1024), toolCallId: "c" }]);
    expect(oversized.result).toBeNull();
    expect(oversized.status).toBeGreaterThanOrEqual(400);
    expect(await db.auditEvent.count()).toBe(rows);
  });

  it("answers an anonymous flood of 60 KiB fields with 401, then 429, storing a few hundred bytes per refusal", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < REFUSALS_PER_MINUTE + 3; i++) {
      const body = { action: "approve", runId: FIELD, toolCallId: FIELD, reason: FIELD, resumeData: FIELD };
      statuses.push(await rawPost(server, JSON.stringify(body)));
    }
    expect(statuses).toEqual([...Array(REFUSALS_PER_MINUTE - 1).fill(401), 429, 429, 429, 429]);
    const footprint = await auditFootprint({ reviewer: "anonymous" });
    // The refusals within the budget (one by the test before), plus one row saying the client is being turned away.
    expect(footprint.rows).toBe(REFUSALS_PER_MINUTE + 1);
    expect(footprint.largest).toBeLessThan(2048);
  });

  it("rate-limits a signed-in reviewer's refusals too, and keeps each refused payload to a preview", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < REFUSALS_PER_MINUTE + 2; i++) {
      statuses.push(await rawPost(server, JSON.stringify({ action: "decline", ...run.ref, reason: "y".repeat(100_000) }), cookie));
    }
    expect(statuses).toEqual([...Array(REFUSALS_PER_MINUTE).fill(400), 429, 429]);
    const footprint = await auditFootprint({ reviewer: "flo@test.example" });
    expect(footprint.rows).toBe(REFUSALS_PER_MINUTE + 1);
    expect(footprint.largest).toBeLessThan(4096);
    // A limited reviewer cannot decide until the minute is over; the run is untouched.
    expect(await rawPost(server, JSON.stringify({ action: "approve", ...run.ref }), cookie)).toBe(429);
    expect(await (await getDb(database.url)).toolCallDecision.count()).toBe(0);
  });

  it("refuses a declared body over the limit at once, without waiting for it", async () => {
    const started = Date.now();
    expect(await partialPost(server, { cookie: otherCookie }, 64 * 1024 * 1024)).toBe(413);
    expect(await partialPost(server, {}, 300 * 1024 * 1024)).toBeOneOf([401, 413, 429]);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it("refuses a body without a length before reading it", async () => {
    expect(await partialPost(server, { cookie: otherCookie }, null)).toBe(411);
  });

  it("refuses NUL characters and lone surrogates with 400 on every edge, and stays up", async () => {
    const statuses = [
      (await postDecision(server, otherCookie, { action: "approve", runId: "a\u0000b", toolCallId: run.ref.toolCallId })).status,
      (await postDecision(server, otherCookie, { action: "approve", runId: run.runId, toolCallId: "\ud800x" })).status,
      (await postDecision(server, otherCookie, { action: "decline", ...run.ref, reason: "no\u0000pe" })).status,
      (await fetch(`${server.url}/api/runs?resourceId=a%00b`, { headers: { cookie: otherCookie } })).status,
      (await fetch(`${server.url}/history/export?reviewer=a%00b`, { headers: { cookie: otherCookie } })).status,
    ];
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const page = await fetch(`${server.url}/runs/a%00b`, { headers: { cookie: otherCookie } });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("No run with this id");
    const history = await fetch(`${server.url}/history?reviewer=a%00b`, { headers: { cookie: otherCookie } });
    expect(history.status).toBe(200);
    // The refusals were recorded, NUL and all made storable.
    const refusals = await (
      await getDb(database.url)
    ).auditEvent.findMany({ where: { reviewer: "nul@test.example", code: "invalid_input" } });
    expect(refusals.map((event) => event.runId)).toContain("a\ufffdb");
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
