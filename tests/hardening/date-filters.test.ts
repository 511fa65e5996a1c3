/**
 * The lists' date filters take only the dates both databases hold (0001-01-01 to 9999-12-31, UTC),
 * against real console servers on SQLite and PostgreSQL: a date PostgreSQL cannot hold used to be a
 * 500 there (and a CSV download cut off mid-stream) while SQLite answered. Now the JSON API and the
 * export refuse it with 400 invalid_input naming the parameter, the pages leave it out and say so,
 * and the edges of the range still work on both.
 */
import { appendAudit } from "../../lib/audit/log.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

/** Each was a 500 on PostgreSQL: before year 1, JS Date's earliest instant, and past year 9999. */
const UNHOLDABLE = [
  ["from", "-271821-04-20T00:00:00.000Z"],
  ["from", "0000-01-01"],
  ["from", "0000-12-31T23:59:59.999Z"],
  ["from", "0001-01-01T00:30:00+01:00"],
  ["to", "+275760-09-13T00:00:00.000Z"],
  ["to", "+010000-01-01T00:00:00.000Z"],
] as const;
const RANGE_MESSAGE = (label: string) => `${label} must be a date from 0001-01-01 to 9999-12-31 (UTC)`;
const labelOf = (parameter: string) => (parameter === "from" ? "From" : "To");

describe.each(["sqlite", "postgres"] as const)("date filters on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let run: DemoRun;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, suspended, reviewer] = await Promise.all([
      startConsoleServer(database.url),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-7301")),
      createTestAccount(database.url, "reviewer", "Dora"),
    ]);
    [server, run] = [started, suspended];
    cookie = await sessionCookie(database.url, reviewer);
    // Something for the history and its export to list.
    await appendAudit(await getDb(database.url), {
      reviewer: "dora@test.example",
      action: "approve",
      outcome: "refused",
      code: "invalid_input",
      ...run.ref,
      resourceId: run.resource,
    });
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" });
  const query = (parameter: string, value: string, extra: Record<string, string> = {}) =>
    new URLSearchParams({ resourceId: run.resource, ...extra, [parameter]: value }).toString();

  /** What the store holds that a listing could touch: nothing of it may change. */
  async function store() {
    const db = await getDb(database.url);
    return { snapshots: await db.workflowSnapshot.findMany({ orderBy: { runId: "asc" } }), audit: await db.auditEvent.findMany() };
  }

  it("refuses a date the databases cannot hold with 400 invalid_input naming the parameter, on /api/queue, /api/runs and the export", async () => {
    const before = await store();
    for (const [parameter, value] of UNHOLDABLE) {
      for (const path of ["/api/queue", "/api/runs", "/history/export"]) {
        const response = await get(`${path}?${query(parameter, value)}`);
        expect({ path, value, status: response.status }).toEqual({ path, value, status: 400 });
        // The export answers before a line of CSV: JSON, not a download.
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        const body = (await response.json()) as { ok: boolean; error: { code: string; message: string; issues: unknown[] } };
        expect(body).toMatchObject({
          ok: false,
          error: { code: "invalid_input", message: RANGE_MESSAGE(labelOf(parameter)), issues: [{ path: parameter }] },
        });
      }
    }
    expect(await store()).toEqual(before);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("leaves such a date out of the queue and history pages, saying why, and still applies the other filters", async () => {
    for (const [parameter, value] of UNHOLDABLE) {
      for (const path of ["/", "/history"]) {
        const response = await get(`${path}?${query(parameter, value)}`);
        expect({ path, value, status: response.status }).toEqual({ path, value, status: 200 });
        const html = await response.text();
        expect(html).toContain(`${parameter}=${value.slice(0, 40)} was ignored: ${RANGE_MESSAGE(labelOf(parameter))}`);
        // The other filter still applies: the queue shows the run of its resource.
        if (path === "/") expect(html).toContain(run.runId);
      }
    }
  });

  it("accepts the range's first and last instants everywhere, and finds what lies between", async () => {
    const edges = { from: "0001-01-01", to: "9999-12-31" };
    const queue = await get(`/api/queue?${query("from", edges.from, { to: edges.to })}`);
    expect(queue.status).toBe(200);
    expect(await queue.json()).toMatchObject({ ok: true, data: { callTotal: 1, threads: [{ runs: [{ runId: run.runId }] }] } });
    const runs = await get(`/api/runs?${query("from", "0001-01-01T00:00:00.000Z", { to: "9999-12-31T23:59:59.999Z" })}`);
    expect(await runs.json()).toMatchObject({ ok: true, data: { total: 1, runs: [{ runId: run.runId }] } });
    const csv = await get(`/history/export?${new URLSearchParams(edges)}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await csv.text()).toContain(run.runId);
    // Nothing lies before the range's first day but the range itself: an empty listing, not an error.
    const early = await get(`/api/runs?${query("from", "0001-01-01", { to: "0001-01-01" })}`);
    expect(await early.json()).toMatchObject({ ok: true, data: { total: 0 } });
  });
});
