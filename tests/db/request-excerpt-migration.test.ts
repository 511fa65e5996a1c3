/**
 * The store's migration 0006 (0005 on PostgreSQL) adds the request excerpt column (on SQLite by rebuilding the table, to
 * keep it before the snapshot JSON): runs waiting before it get their excerpt in the same
 * transaction, every row, rowid and summary is kept, and the summaries' triggers still work. In a
 * file of its own: a second PostgreSQL database made after another describe's Mastra instances waits
 * on their background index builds.
 */
import pg from "pg";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { REQUEST_EXCERPT_MAX_LENGTH } from "../../packages/mastra-store/src/conversation.ts";
import { getDb, disconnectDb } from "../../lib/db/client.ts";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { deployMigrations } from "../../lib/db/migrate.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { createTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

/** The excerpt as docs/context.md states it, computed here independently of the store's code. */
function expectedExcerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= REQUEST_EXCERPT_MAX_LENGTH ? line : `${line.slice(0, REQUEST_EXCERPT_MAX_LENGTH - 1).trimEnd()}…`;
}

async function listedExcerpt(databaseUrl: string, runId: string): Promise<string | undefined> {
  const { runs } = await listSuspendedRuns({}, databaseUrl);
  const run = runs.find((candidate) => candidate.runId === runId);
  expect(run, `run ${runId} is listed`).toBeDefined();
  return run!.requestExcerpt;
}

async function storedExcerpts(databaseUrl: string, runId: string) {
  const db = await getDb(databaseUrl);
  return db.workflowSnapshot.findMany({ where: { runId }, select: { workflowName: true, status: true, requestExcerpt: true } });
}

describe.each(["sqlite", "postgres"] as const)("migration 0006 on %s", { timeout: 180_000 }, (kind) => {
  it("gives runs waiting before it their excerpt, keeps every row and summary, and its triggers still keep them", async () => {
    const database = await createTestDatabase(kind);
    try {
      const texts = [refundRequest("ORD-8201"), refundRequest("ORD-8202", "7.00 USD")];
      const runs = [];
      for (const text of texts) runs.push(await suspendDemoRun(database.url, "refunds", text));
      await disconnectDb(database.url);

      // The database as the store left it before 0006: no column, no history row for it.
      const sql = await rawConnection(kind, database.url);
      await sql.run(`ALTER TABLE "workflow_snapshots" DROP COLUMN "request_excerpt"`);
      await sql.run(`DELETE FROM "mastra_store_migrations" WHERE "name" LIKE '%_request_excerpt'`);
      const before = await sql.summaries();
      await sql.close();

      // As a deploy runs it: the console's triggers on workflow_snapshots come off and back on around it.
      expect(await deployMigrations(database.url)).toEqual({
        applied: [kind === "sqlite" ? "store/0006_request_excerpt" : "store/0005_request_excerpt"],
      });

      const after = await rawConnection(kind, database.url);
      expect(await after.summaries()).toEqual(before);
      if (kind === "sqlite") expect(await after.triggerCount()).toEqual({ store: 18, console: 5 });
      await after.close();
      for (const [i, run] of runs.entries()) {
        expect(await listedExcerpt(database.url, run.runId)).toBe(expectedExcerpt(texts[i]!));
      }
      // The summaries' triggers came back with the table: a new waiting run is counted.
      await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8203"));
      const counted = await rawConnection(kind, database.url);
      const summaries = await counted.summaries();
      await counted.close();
      expect(summaries.counts).toEqual([{ agent: "refunds", runs: before.counts[0]!.runs + 1 }]);
    } finally {
      await disconnectDb(database.url);
      await database.drop();
    }
  });
});

/** Plain SQL on the test database, outside Prisma (its client would not know the dropped column). */
async function rawConnection(kind: "sqlite" | "postgres", url: string) {
  const summaryQueries = {
    rows: `SELECT COUNT(*) AS "n" FROM "workflow_snapshots"`,
    counts: `SELECT "agent_id" AS "agent", "runs" FROM "suspended_run_counts" WHERE "runs" > 0 ORDER BY "agent_id"`,
    threads: `SELECT "agent_id", "thread_key", "runs", "calls" FROM "suspended_threads" ORDER BY "agent_id", "thread_key"`,
  };
  if (kind === "sqlite") {
    const db = new Database(sqliteFilePath(url));
    return {
      run: async (statement: string) => void db.exec(statement),
      summaries: async () => ({
        rows: Number((db.prepare(summaryQueries.rows).get() as { n: number }).n),
        counts: db.prepare(summaryQueries.counts).all() as Array<{ agent: string; runs: number }>,
        threads: db.prepare(summaryQueries.threads).all(),
        rowids: db.prepare(`SELECT "rowid", "run_id" FROM "workflow_snapshots" ORDER BY "rowid"`).all(),
      }),
      triggerCount: async () => {
        const names = db
          .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'workflow_snapshots'`)
          .all() as Array<{
          name: string;
        }>;
        // The console's keep waiting_call_risks and the live queue's feed (lib/db/derived-tables.ts); the others are the store's.
        const console = names.filter(({ name }) => /^(workflow_snapshots_waiting_risks_|queue_changes_)/.test(name)).length;
        return { store: names.length - console, console };
      },
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    run: async (statement: string) => void (await client.query(statement)),
    summaries: async () => ({
      rows: Number((await client.query(summaryQueries.rows)).rows[0].n),
      counts: (await client.query(summaryQueries.counts)).rows as Array<{ agent: string; runs: number }>,
      threads: (await client.query(summaryQueries.threads)).rows,
    }),
    triggerCount: async () => 0,
    close: async () => void (await client.end()),
  };
}
