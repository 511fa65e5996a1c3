/**
 * SQLite picks the listing's most selective index once the backlog has grown: opening a client
 * gathers planner statistics (PRAGMA optimize), so an agentId + threadId listing reads the thread's
 * few runs instead of every run of a busy agent. Without statistics both indexes tie and SQLite
 * took the agent's (178 ms instead of 1 ms at 100k in `npm run bench`).
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb, optimizeDatabase } from "../../lib/db/client.ts";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { agentRunsOfThreadOrResource, listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

/** The listing's page query for agentId + threadId, as Prisma sends it (bound parameters, these columns). */
const AGENT_AND_THREAD = {
  sql: `SELECT workflow_name, run_id, agent_id, thread_id, resource_id, created_at, updated_at, tool_calls
    FROM workflow_snapshots WHERE (status = ? AND agent_id = ? AND thread_id = ?)
    ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?`,
  params: ["suspended", "busy-agent", "thread-7", 50, 0],
};

function planOf(file: string, { sql, params }: { sql: string; params: unknown[] }): string {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((step) => step.detail).join("\n");
  } finally {
    db.close();
  }
}

/** The row count SQLite's planner believes workflow_snapshots has (sqlite_stat1). */
function analyzedRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`SELECT stat FROM sqlite_stat1 WHERE tbl = 'workflow_snapshots'`).all() as Array<{ stat: string }>;
    return Math.max(...rows.map((row) => Number(row.stat.split(" ")[0])));
  } finally {
    db.close();
  }
}

/**
 * A busy agent's backlog: `runs` suspended runs over 400 threads, written by another process; or,
 * `finished`, runs of a workflow that ended, well or not (no agent, no thread: Mastra keeps them).
 */
function fillBacklog(file: string, runs: number, firstRun = 0, { finished = false } = {}): void {
  const db = new Database(file);
  const insert = db.prepare(`INSERT INTO workflow_snapshots
    (workflow_name, run_id, resource_id, agent_id, thread_id, status, tool_calls, snapshot, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, '[]', '{}', ?, ?)`);
  db.transaction(() => {
    for (let i = firstRun; i < firstRun + runs; i++) {
      const at = new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
      if (finished) insert.run("nightly-report", `run-${i}`, `customer-${i % 40}`, null, null, i % 2 ? "success" : "failed", at, at);
      else insert.run("agentic-loop", `run-${i}`, `customer-${i % 40}`, "busy-agent", `thread-${i % 400}`, "suspended", at, at);
    }
  })();
  db.close();
}

// Filling 100k rows is seconds of CPU that blocks the event loop: beside another file on a busy
// machine it took longer than the default minute.
describe("SQLite planner statistics", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let file: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    file = sqliteFilePath(database.url);
  });
  afterAll(async () => {
    await disconnectDb(database.url);
    await database.drop();
  });

  it("lists an agent + thread from the thread index once a client has opened the grown database", async () => {
    // Agents elsewhere piled up thousands of runs before any console opened the file.
    fillBacklog(file, 8_000);
    expect(planOf(file, AGENT_AND_THREAD)).toMatch(/agent_id_status_created_at/);

    await getDb(database.url);

    expect(planOf(file, AGENT_AND_THREAD)).toMatch(
      /USING INDEX workflow_snapshots_status_thread_id_created_at\w* \(status=\? AND thread_id=\?\)/,
    );
    const { runs, total } = await listSuspendedRuns({ agentId: "busy-agent", threadId: "thread-7", perPage: 50, page: 0 }, database.url);
    expect(total).toBe(8_000 / 400);
    expect(runs.map((run) => run.runId)).toEqual(Array.from({ length: 20 }, (_, k) => `run-${7 + 400 * (19 - k)}`));
  });

  it("refreshes the statistics of a long-lived client as the backlog keeps growing", async () => {
    expect(analyzedRows(file)).toBe(8_000);
    fillBacklog(file, 100_000 - 8_000, 8_000);
    await optimizeDatabase(database.url);
    expect(analyzedRows(file)).toBe(100_000);
  });

  it("finds an agent's runs of a thread by the thread, even when the sampled statistics favour the agent", async () => {
    // Finished workflow runs (no agent, no thread) sort first in the thread's index: PRAGMA optimize's
    // sample (analysis_limit) sees only them, and rates one thread's waiting runs as more than the agent's.
    const sampled = await createTestDatabase("sqlite");
    const sampledFile = sqliteFilePath(sampled.url);
    try {
      fillBacklog(sampledFile, 3_000, 0, { finished: true });
      fillBacklog(sampledFile, 8_000, 3_000);
      await getDb(sampled.url);
      expect(analyzedRows(sampledFile)).toBe(11_000);
      expect(planOf(sampledFile, AGENT_AND_THREAD)).toMatch(/agent_id_status_created_at/);

      const query = { agentId: "busy-agent", threadId: "thread-7" };
      const statements = agentRunsOfThreadOrResource(query, { skip: 0, take: 50 });
      for (const statement of [statements.page, statements.count]) {
        expect(planOf(sampledFile, { sql: statement.sql, params: statement.values })).toMatch(
          /USING (COVERING )?INDEX workflow_snapshots_status_thread_id_created_at\w* \(status=\? AND thread_id=\?\)/,
        );
      }
      const { runs, total } = await listSuspendedRuns({ ...query, perPage: 50, page: 0 }, sampled.url);
      expect(total).toBe(8_000 / 400);
      expect(runs.map((run) => run.runId)).toEqual(Array.from({ length: 20 }, (_, k) => `run-${10_807 - 400 * k}`));
    } finally {
      await disconnectDb(sampled.url);
      await sampled.drop();
    }
  });
});
