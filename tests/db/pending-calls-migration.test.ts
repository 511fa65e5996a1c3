/**
 * The store's migration 0007 (0006 on PostgreSQL) adds pending_tool_calls: the calls of runs waiting
 * before it are filled in by the migration itself, and its triggers keep the table as new runs wait.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { waitingCalls } from "../../lib/rules/waiting-calls.ts";
import { migrateStore } from "../../packages/mastra-store/src/migrate.ts";
import { createTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

const UNDO = {
  sqlite: [
    `DROP TRIGGER "workflow_snapshots_pending_insert"`,
    `DROP TRIGGER "workflow_snapshots_pending_update"`,
    `DROP TRIGGER "workflow_snapshots_pending_delete"`,
    `DROP TABLE "pending_tool_calls"`,
  ],
  postgres: [`DROP TABLE "pending_tool_calls"`, `DROP FUNCTION workflow_snapshots_keep_pending_calls() CASCADE`],
};

async function runSql(kind: "sqlite" | "postgres", url: string, statements: string[]) {
  if (kind === "sqlite") {
    const db = new Database(sqliteFilePath(url));
    for (const statement of statements) db.exec(statement);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const statement of statements) await client.query(statement);
  await client.end();
}

async function waitingKeys(url: string) {
  const keys: string[] = [];
  for await (const call of waitingCalls(await getDb(url), null, { pageSize: 2 })) keys.push(`${call.runId}/${call.toolCallId}`);
  return keys.sort();
}

async function listedKeys(url: string) {
  const { runs } = await listSuspendedRuns({ perPage: 100 }, url);
  return runs.flatMap((run) => run.toolCalls.map((call) => `${run.runId}/${call.toolCallId}`)).sort();
}

describe.each(["sqlite", "postgres"] as const)("migration pending_tool_calls on %s", { timeout: 180_000 }, (kind) => {
  it("fills in the calls already waiting, and its triggers keep the table afterwards", async () => {
    const database = await createTestDatabase(kind);
    try {
      await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8301"));
      await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-8302"));
      await disconnectDb(database.url);
      // The database as the store left it before the migration.
      await runSql(kind, database.url, [...UNDO[kind], `DELETE FROM "mastra_store_migrations" WHERE "name" LIKE '%_pending_tool_calls'`]);

      expect(await migrateStore(database.url)).toEqual({
        applied: [kind === "sqlite" ? "0007_pending_tool_calls" : "0006_pending_tool_calls"],
        baselined: [],
      });
      const listed = await listedKeys(database.url);
      expect(listed).toHaveLength(2);
      expect(await waitingKeys(database.url)).toEqual(listed);

      await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8303"));
      const after = await listedKeys(database.url);
      expect(after).toHaveLength(3);
      expect(await waitingKeys(database.url)).toEqual(after);
    } finally {
      await disconnectDb(database.url);
      await database.drop();
    }
  });
});
