/**
 * The benchmark's backlog generated in SQL (bench/sql-backlog.ts) holds, column for column and
 * summary for summary, what the store writes for the same runs: every generated snapshot is written
 * again through PrismaWorkflowsStorage into a second database, and the two are compared.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { PrismaWorkflowsStorage } from "../../packages/mastra-store/src/storage.ts";
import { loadTemplates } from "../../bench/backlog.ts";
import { generateBacklogInSql } from "../../bench/sql-backlog.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

const TABLES: Record<string, string> = {
  workflow_snapshots: `SELECT "workflow_name", "run_id", "resource_id", "agent_id", "thread_id", "status", "tool_call_count", "version",
    "created_at", "updated_at", "tool_calls", "request_excerpt", "snapshot" FROM "workflow_snapshots" ORDER BY 1, 2`,
  suspended_run_counts: `SELECT * FROM "suspended_run_counts" ORDER BY 1`,
  suspended_run_hours: `SELECT * FROM "suspended_run_hours" ORDER BY 1, 2`,
  suspended_threads: `SELECT * FROM "suspended_threads" ORDER BY 1, 2`,
  suspended_thread_days: `SELECT * FROM "suspended_thread_days" ORDER BY 1, 2, 3`,
  // The console's count of them (lib/db/derived-tables.ts); a slot emptied by a rewrite stays at 0.
  suspended_thread_totals: `SELECT * FROM "suspended_thread_totals" WHERE "threads" <> 0 OR "calls" <> 0 ORDER BY 1, 2`,
  pending_tool_calls: `SELECT * FROM "pending_tool_calls" ORDER BY 1, 2, 3`,
  // When a call started waiting is the moment of the write; which calls did is what must agree.
  waiting_tool_calls: `SELECT "run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name"
    FROM "waiting_tool_calls" ORDER BY 1, 2`,
};

async function read(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables: Record<string, unknown[]> = {};
    for (const [name, query] of Object.entries(TABLES)) tables[name] = (await client.query(query)).rows;
    return tables;
  } finally {
    await client.end();
  }
}

describe("the backlog generated in SQL", { timeout: 300_000 }, () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) {
      await disconnectDb(database.url);
      await database.drop();
    }
  });

  it("holds what the store writes for the same runs, every column and every summary, filled in bulk or by the triggers", async () => {
    const { templates } = await loadTemplates(() => {});
    const [bulk, byTriggers, written] = [
      await createTestDatabase("postgres"),
      await createTestDatabase("postgres"),
      await createTestDatabase("postgres"),
    ];
    databases.push(bulk, byTriggers, written);
    // Twice the templates: every shape at least once, suspended and completed, several per thread.
    const size = templates.length * 2;
    const lines: string[] = [];
    await generateBacklogInSql(bulk.url, templates, size, { batch: 40, log: (line) => lines.push(line) });
    // The bulk fill ran (the tests connect as a superuser): otherwise this would compare the triggers twice.
    expect(lines.some((line) => line.startsWith("  summaries in"))).toBe(true);
    await generateBacklogInSql(byTriggers.url, templates, size, { batch: 40, summaries: "triggers" });
    const fromSql = await read(bulk.url);
    const runs = fromSql.workflow_snapshots as Array<Record<string, unknown>>;
    expect(runs.length).toBeGreaterThan(size);
    expect(new Set(runs.map((row) => row.status))).toEqual(new Set(["suspended", "success"]));
    expect((fromSql.pending_tool_calls as unknown[]).length).toBeGreaterThan(templates.length);

    const storage = new PrismaWorkflowsStorage({ db: await getDb(written.url) });
    for (const row of runs) {
      await storage.persistWorkflowSnapshot({
        workflowName: row.workflow_name as string,
        runId: row.run_id as string,
        resourceId: (row.resource_id as string | null) ?? undefined,
        snapshot: JSON.parse(row.snapshot as string),
        createdAt: row.created_at as Date,
        updatedAt: row.updated_at as Date,
      });
    }
    const throughStore = await read(written.url);
    const fromTriggers = await read(byTriggers.url);
    for (const table of Object.keys(TABLES)) {
      expect(fromSql[table], `${table}, filled in bulk`).toEqual(throughStore[table]);
      expect(fromTriggers[table], `${table}, kept by the triggers`).toEqual(throughStore[table]);
    }
    // The bulk fill leaves the triggers as they were: a write after it keeps the summaries.
    const client = new pg.Client({ connectionString: bulk.url });
    await client.connect();
    try {
      const before = await client.query<{ runs: number }>(`SELECT SUM("runs")::int AS "runs" FROM "suspended_run_counts"`);
      const run = runs.find((row) => row.status === "suspended")!;
      await client.query(`DELETE FROM "workflow_snapshots" WHERE "run_id" = $1`, [run.run_id]);
      const after = await client.query<{ runs: number }>(`SELECT SUM("runs")::int AS "runs" FROM "suspended_run_counts"`);
      expect(after.rows[0]!.runs).toBe(before.rows[0]!.runs - 1);
    } finally {
      await client.end();
    }
  });
});
