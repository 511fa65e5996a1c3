/**
 * Deep pages of the whole backlog and of one agent start from their hour (suspended_run_hours)
 * instead of walking every run before them. Checked against a plain LIMIT/OFFSET query sent with
 * the bare driver, after inserts, status changes, deletes and moved timestamps by another
 * connection, on SQLite and PostgreSQL. The backlog has runs sharing a timestamp (order falls back to
 * runId), runs exactly on an hour boundary, non-agent rows and finished runs.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

const AGENTS = ["refunds", "shipping", "outreach"];
// Enough that both listings have pages past the offset where the hour lookup takes over (5,000).
const RUNS = 14_000;
const START = Date.UTC(2026, 9, 1);

/** Statements on the test database through the bare driver, outside the code under test. */
interface Driver {
  exec(sql: string, params?: unknown[]): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function openDriver(database: TestDatabase): Promise<Driver> {
  if (database.kind === "sqlite") {
    const db = new Database(sqliteFilePath(database.url));
    return {
      exec: async (sql, params = []) => void db.prepare(sql).run(...params),
      query: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[],
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return {
    exec: async (sql, params = []) => void (await client.query(toPg(sql), params)),
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query(toPg(sql), params)).rows as T[],
    close: () => client.end(),
  };
}

/** `?` placeholders as PostgreSQL's `$n`. */
function toPg(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** A timestamp as each database stores Prisma's DateTime (SQLite: text in UTC; PostgreSQL: timestamp(3)). */
function stamp(kind: TestDatabase["kind"], ms: number): string {
  const iso = new Date(ms).toISOString();
  return kind === "sqlite" ? iso.replace("Z", "+00:00") : iso.replace("T", " ").replace("Z", "");
}

async function fillBacklog(database: TestDatabase, driver: Driver): Promise<void> {
  const insert = `INSERT INTO workflow_snapshots
    (workflow_name, run_id, resource_id, agent_id, thread_id, status, tool_calls, snapshot, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, '[]', '{}', ?, ?)`;
  await driver.exec("BEGIN");
  for (let i = 0; i < RUNS; i++) {
    // ~45 runs an hour over three days; every 7th run shares the previous one's timestamp, and
    // every 50th sits exactly on an hour boundary.
    const ms = i % 50 === 0 ? START + Math.floor(i / 45) * 3_600_000 : START + Math.floor(((i - (i % 7 === 0 ? 1 : 0)) * 3_600_000) / 45);
    const at = stamp(database.kind, ms);
    // Three quarters of the runs are shipping's, so one agent's listing goes that deep too.
    const agent = AGENTS[i % 4 === 0 ? (i % 8 === 0 ? 0 : 2) : 1]!;
    await driver.exec(insert, [
      "agentic-loop",
      `run-${String(i).padStart(5, "0")}`,
      `customer-${i % 9}`,
      agent,
      `thread-${i % 120}`,
      "suspended",
      at,
      at,
    ]);
    // Rows that never count: the inner execution workflow of the same run, and a finished run.
    if (i % 10 === 0)
      await driver.exec(insert, ["executionWorkflow", `run-${String(i).padStart(5, "0")}`, null, null, null, "suspended", at, at]);
    if (i % 13 === 0) await driver.exec(insert, ["agentic-loop", `done-${i}`, null, agent, null, "success", at, at]);
  }
  await driver.exec("COMMIT");
  // Runs come and go: some are decided (status changes, then the row is deleted), one finished run
  // is suspended again, some move to another hour.
  await driver.exec(
    `UPDATE workflow_snapshots SET status = 'success' WHERE workflow_name = 'agentic-loop' AND run_id LIKE 'run-%' AND run_id LIKE '%3'`,
  );
  await driver.exec(`DELETE FROM workflow_snapshots WHERE workflow_name = 'agentic-loop' AND run_id LIKE 'run-%' AND run_id LIKE '%7'`);
  await driver.exec(`UPDATE workflow_snapshots SET status = 'suspended' WHERE run_id = 'done-13'`);
  await driver.exec(`UPDATE workflow_snapshots SET created_at = ? WHERE run_id IN ('run-00100', 'run-01501', 'run-03000', 'run-09001')`, [
    stamp(database.kind, START - 5 * 3_600_000),
  ]);
}

describe.each(["sqlite", "postgres"] as const)("deep pages on %s", (kind) => {
  let database: TestDatabase;
  let driver: Driver;

  /** The oracle: the listing's filter and order as one plain OFFSET query. */
  const expected = (agentId: string | undefined, skip: number, take: number) =>
    driver
      .query<{ run_id: string }>(
        `SELECT run_id FROM workflow_snapshots WHERE status = 'suspended' AND agent_id IS NOT NULL ${agentId ? "AND agent_id = ?" : ""}
         ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?`,
        [...(agentId ? [agentId] : []), take, skip],
      )
      .then((rows) => rows.map((row) => row.run_id));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    driver = await openDriver(database);
    await fillBacklog(database, driver);
  }, 120_000);
  afterAll(async () => {
    await driver?.close();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("keeps suspended_run_hours equal to the runs it counts", async () => {
    const hour = kind === "sqlite" ? `strftime('%Y-%m-%dT%H:00:00.000+00:00', created_at)` : `date_trunc('hour', created_at)`;
    const counted = await driver.query<{ hour: unknown; agent_id: string; runs: number | string }>(
      `SELECT ${hour} AS hour, agent_id, COUNT(*) AS runs FROM workflow_snapshots
       WHERE status = 'suspended' AND agent_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const kept = await (await getDb(database.url)).suspendedRunHour.findMany({ orderBy: [{ hour: "asc" }, { agentId: "asc" }] });
    const key = (hour: unknown, agentId: string, runs: unknown) =>
      `${new Date(hour instanceof Date ? hour : String(hour)).toISOString()} ${agentId} ${Number(runs)}`;
    expect(kept.map((row) => key(row.hour, row.agentId, row.runs))).toEqual(counted.map((row) => key(row.hour, row.agent_id, row.runs)));
    expect(kept.length).toBeGreaterThan(500);
  });

  it("counts a creation window of whole hours from the hours, exactly as COUNT(*) would", async () => {
    const HOUR = 3_600_000;
    const count = async (agentId: string | undefined, from?: number, to?: number) => {
      const conditions = ["status = 'suspended'", "agent_id IS NOT NULL"];
      const params: unknown[] = [];
      if (agentId) conditions.push("agent_id = ?") && params.push(agentId);
      if (from !== undefined) conditions.push("created_at >= ?") && params.push(stamp(database.kind, from));
      if (to !== undefined) conditions.push("created_at <= ?") && params.push(stamp(database.kind, to));
      const [row] = await driver.query<{ runs: number | string }>(
        `SELECT COUNT(*) AS runs FROM workflow_snapshots WHERE ${conditions.join(" AND ")}`,
        params,
      );
      return Number(row!.runs);
    };
    const windows: Array<[from?: number, to?: number]> = [
      [START, START + 24 * HOUR - 1], // a whole day: from the hours
      [START + 5 * HOUR, START + 6 * HOUR - 1], // one hour, whose first run sits on its boundary
      [START - 5 * HOUR, START - 4 * HOUR - 1], // the hour runs were moved to
      [START + 30 * HOUR], // open-ended
      [undefined, START + 40 * HOUR - 1],
      [START + 90 * HOUR, START + 100 * HOUR - 1], // after the last run
      [START + 5 * HOUR + 1, START + 6 * HOUR - 1], // cutting an hour: counted from the runs
      [START + 5 * HOUR, START + 6 * HOUR],
    ];
    for (const agentId of [undefined, "shipping", "nobody"]) {
      for (const [from, to] of windows) {
        const listed = await listSuspendedRuns(
          {
            agentId,
            fromDate: from === undefined ? undefined : new Date(from),
            toDate: to === undefined ? undefined : new Date(to),
            perPage: 5,
            page: 0,
          },
          database.url,
        );
        expect(listed.total, `agent ${agentId ?? "any"}, ${from} to ${to}`).toBe(await count(agentId, from, to));
      }
    }
    expect(await count(undefined, START, START + 24 * HOUR - 1)).toBeGreaterThan(500);
  });

  it("serves every deep page of the whole backlog and of one agent exactly as OFFSET would", async () => {
    for (const agentId of [undefined, "shipping"]) {
      const { total } = await listSuspendedRuns({ agentId, perPage: 1, page: 0 }, database.url);
      expect(total).toBeGreaterThan(agentId ? 6_000 : 9_000);
      for (const perPage of [50, 37]) {
        for (let page = Math.floor(1_000 / perPage); page * perPage < total + perPage; page++) {
          const listed = await listSuspendedRuns({ agentId, perPage, page }, database.url);
          expect(
            listed.runs.map((run) => run.runId),
            `agent ${agentId ?? "any"}, page ${page} of ${perPage}`,
          ).toEqual(await expected(agentId, page * perPage, perPage));
          expect(listed.total).toBe(total);
        }
      }
      // Past the end: empty, with the real total.
      expect(await listSuspendedRuns({ agentId, perPage: 50, page: 1_000 }, database.url)).toEqual({ runs: [], total });
    }
  }, 120_000);
});
