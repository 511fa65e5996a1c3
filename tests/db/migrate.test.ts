/**
 * deployMigrations on fresh SQLite and PostgreSQL databases: the schema and its indexes exist,
 * `_prisma_migrations` is what Prisma itself records, and deploying again applies nothing.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prismaPaths, sqliteFilePath } from "../../lib/db/database-url.ts";
import { storePrismaPaths } from "../../lib/db/prisma-paths.ts";
import { migrateStore, readMigrations } from "@agent-approvals/mastra-store/migrate";
import { deployMigrations, type DatabaseProvider } from "../../lib/db/migrate.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

/**
 * The index names Prisma gives the WorkflowSnapshot model's @@index lines in `schema`: every index
 * the schema declares must exist after deploying (column names are the @map-ped ones).
 */
function declaredIndexes(schema: string, kind: DatabaseProvider): string[] {
  const model = /model WorkflowSnapshot \{([\s\S]*?)\n\}/.exec(schema)![1]!;
  const columns = new Map([...model.matchAll(/^\s*(\w+)\s+\S+.*@map\("(\w+)"\)/gm)].map((match) => [match[1]!, match[2]!]));
  return [...model.matchAll(/@@index\(\[([^\]]+)\]\)/g)].map((match) => {
    const base = `workflow_snapshots_${match[1]!
      .split(",")
      .map((field) => columns.get(field.trim()) ?? field.trim())
      .join("_")}`;
    // PostgreSQL names are at most 63 characters; Prisma shortens the name before its "_idx".
    return kind === "postgres" && base.length + 4 > 63 ? `${base.slice(0, 59)}_idx` : `${base}_idx`;
  });
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
  applied_steps_count: number | bigint;
}

/** Runs one query on the test database with the plain driver, independent of the code under test. */
async function query<T>(database: TestDatabase, sql: string): Promise<T[]> {
  if (database.kind === "sqlite") {
    const db = new Database(sqliteFilePath(database.url), { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const SQL = {
  sqlite: {
    tables: `SELECT name FROM sqlite_master WHERE type = 'table'`,
    indexes: `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'workflow_snapshots'`,
  },
  postgres: {
    tables: `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`,
    indexes: `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'workflow_snapshots'`,
  },
} satisfies Record<DatabaseProvider, Record<string, string>>;

describe.each(["sqlite", "postgres"] as const)("deployMigrations on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    // Creates the database and runs the first deployMigrations.
    database = await createTestDatabase(kind);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("creates workflow_snapshots with its indexes", async () => {
    const tables = (await query<{ name: string }>(database, SQL[kind].tables)).map((row) => row.name);
    expect(tables).toEqual(expect.arrayContaining(["workflow_snapshots", "_prisma_migrations"]));
    const indexes = (await query<{ name: string }>(database, SQL[kind].indexes)).map((row) => row.name);
    const declared = declaredIndexes(await readFile(storePrismaPaths(kind).schemaFiles[1]!, "utf8"), kind);
    expect(declared).toContain("workflow_snapshots_run_id_idx");
    expect(indexes).toEqual(expect.arrayContaining(declared));
  });

  it("keeps the triggers that keep the listing's counts, hours and thread summaries exact", async () => {
    // The thread_summaries migration rebuilds workflow_snapshots on SQLite, which drops its triggers.
    const sql =
      kind === "sqlite"
        ? "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'workflow_snapshots'"
        : "SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'workflow_snapshots'::regclass AND NOT tgisinternal";
    const names = (await query<{ name: string }>(database, sql)).map((row) => row.name);
    for (const kept of ["count", "hours", "threads", "thread_days"]) {
      expect(names.filter((name) => name.startsWith(`workflow_snapshots_${kept}_`)).length, kept).toBeGreaterThanOrEqual(
        kind === "sqlite" ? 3 : 1,
      );
    }
  });

  it("records every migration the way Prisma does", async () => {
    const dir = prismaPaths(kind).migrations;
    const names = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(names.length).toBeGreaterThan(0);

    const rows = await query<MigrationRow>(database, "SELECT * FROM _prisma_migrations ORDER BY migration_name");
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const sql = await readFile(path.join(dir, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(Number(row.applied_steps_count)).toBe(1);
    }
  });

  it("applies nothing the second time, even when called concurrently", async () => {
    const results = await Promise.all([deployMigrations(database.url), deployMigrations(database.url)]);
    expect(results).toEqual([{ applied: [] }, { applied: [] }]);
  });
});

describe.each(["sqlite", "postgres"] as const)("the store package's migrations on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("are recorded in the store's own history, apart from Prisma's", async () => {
    const expected = await readMigrations(kind);
    const rows = await query<{ name: string; checksum: string; baselined: unknown }>(
      database,
      `SELECT "name", "checksum", "baselined" FROM "mastra_store_migrations" ORDER BY "name"`,
    );
    expect(rows.map((row) => [row.name, row.checksum, Boolean(row.baselined)])).toEqual(
      expected.map((migration) => [migration.name, migration.checksum, false]),
    );
    const prismas = await query<MigrationRow>(database, "SELECT * FROM _prisma_migrations");
    expect(prismas.map((row) => row.migration_name)).not.toContain(expected[0]!.name);
  });

  it("run once when two migrators start together on a fresh database", async () => {
    const fresh = await createTestDatabase(kind, { migrate: false });
    try {
      const results = await Promise.all([migrateStore(storeUrl(fresh)), migrateStore(storeUrl(fresh))]);
      expect(results.map((result) => result.applied.length).sort()).toEqual([0, (await readMigrations(kind)).length]);
      const tables = (await query<{ name: string }>(fresh, SQL[kind].tables)).map((row) => row.name);
      expect(tables).toEqual(expect.arrayContaining(["workflow_snapshots", "suspended_threads", "mastra_store_migrations"]));
      expect(tables).not.toContain("_prisma_migrations");
    } finally {
      await fresh.drop();
    }
  });

  it("take over a console database from before the store was a package without touching its runs", async () => {
    // Such a database has the store's first tables (from the console's own migrations), no store history.
    const old = await createTestDatabase(kind, { migrate: false });
    try {
      const [first, ...later] = await readMigrations(kind);
      await execute(old, first!.sql);
      await execute(
        old,
        `INSERT INTO "workflow_snapshots" ("workflow_name", "run_id", "status", "created_at", "updated_at", "snapshot")
        VALUES ('agentic-loop', 'run-before-the-split', 'suspended', '2026-11-30T10:00:00.000Z', '2026-11-30T10:00:00.000Z', '{}')`,
      );

      const result = await migrateStore(storeUrl(old));
      expect(result).toEqual({ applied: later.map((migration) => migration.name), baselined: [first!.name] });
      const runs = await query<{ run_id: string }>(old, `SELECT "run_id" FROM "workflow_snapshots"`);
      expect(runs.map((row) => row.run_id)).toEqual(["run-before-the-split"]);
      expect(await migrateStore(storeUrl(old))).toEqual({ applied: [], baselined: [] });
    } finally {
      await old.drop();
    }
  });
});

describe.each(["sqlite", "postgres"] as const)("the per-day thread summaries on %s", (kind) => {
  it("are filled from the runs already waiting when a store from before them is migrated", async () => {
    const old = await createTestDatabase(kind, { migrate: false });
    try {
      const migrations = await readMigrations(kind);
      const before = migrations.filter((migration) => migration.name < "0004");
      const recorded = before.map((m) => `('${m.name}', '${m.checksum}', ${kind === "sqlite" ? 0 : false}, '2026-11-30T00:00:00.000Z')`);
      await execute(old, before.map((migration) => migration.sql).join("\n;\n"));
      await execute(
        old,
        `CREATE TABLE "mastra_store_migrations" ("name" TEXT NOT NULL PRIMARY KEY, "checksum" TEXT NOT NULL,
        "baselined" BOOLEAN NOT NULL, "applied_at" TEXT NOT NULL); INSERT INTO "mastra_store_migrations" VALUES ${recorded.join(", ")}`,
      );
      // Two days, two agents, a thread with runs on both days, runs without a thread, one finished run.
      const runs: Array<[string, string, string | null, string, string, number]> = [
        ["r1", "refunds", "t-1", "suspended", "2026-11-29T22:00:00.000Z", 1],
        ["r2", "outreach", "t-1", "suspended", "2026-11-29T23:59:59.999Z", 2],
        ["r3", "refunds", "t-1", "suspended", "2026-11-30T00:00:00.000Z", 1],
        ["r4", "refunds", null, "suspended", "2026-11-30T08:00:00.000Z", 1],
        ["r5", "refunds", null, "suspended", "2026-11-30T09:00:00.000Z", 1],
        ["r6", "refunds", "t-1", "success", "2026-11-30T10:00:00.000Z", 0],
      ];
      await execute(
        old,
        `INSERT INTO "workflow_snapshots" ("workflow_name", "run_id", "agent_id", "thread_id", "status", "tool_call_count", "created_at", "updated_at", "snapshot")
        VALUES ${runs.map(([run, agent, thread, status, at, calls]) => `('agentic-loop', '${run}', '${agent}', ${thread ? `'${thread}'` : "NULL"}, '${status}', ${calls}, '${at}', '${at}', '{}')`).join(", ")}`,
      );

      const after = migrations.filter((migration) => migration.name >= "0004").map((migration) => migration.name);
      expect(after[0]).toBe("0004_thread_days");
      expect(await migrateStore(storeUrl(old))).toEqual({ applied: after, baselined: [] });
      const rows = await query<{
        agent_id: string;
        day: string | Date;
        thread_key: string;
        runs: number;
        calls: number;
        oldest_at: string | Date;
      }>(old, `SELECT * FROM "suspended_thread_days" ORDER BY "agent_id", "day", "thread_key"`);
      const iso = (value: string | Date) => new Date(value).toISOString();
      expect(
        rows.map((row) => [row.agent_id, iso(row.day), row.thread_key, Number(row.runs), Number(row.calls), iso(row.oldest_at)]),
      ).toEqual([
        ["", "2026-11-29T00:00:00.000Z", "t-1", 2, 3, "2026-11-29T22:00:00.000Z"],
        ["", "2026-11-30T00:00:00.000Z", "", 2, 2, "2026-11-30T08:00:00.000Z"],
        ["", "2026-11-30T00:00:00.000Z", "t-1", 1, 1, "2026-11-30T00:00:00.000Z"],
        ["outreach", "2026-11-29T00:00:00.000Z", "t-1", 1, 2, "2026-11-29T23:59:59.999Z"],
        ["refunds", "2026-11-29T00:00:00.000Z", "t-1", 1, 1, "2026-11-29T22:00:00.000Z"],
        ["refunds", "2026-11-30T00:00:00.000Z", "", 2, 2, "2026-11-30T08:00:00.000Z"],
        ["refunds", "2026-11-30T00:00:00.000Z", "t-1", 1, 1, "2026-11-30T00:00:00.000Z"],
      ]);
    } finally {
      await old.drop();
    }
  });
});

/** The test database's URL as the store package reads it (an absolute SQLite path). */
function storeUrl(database: TestDatabase): string {
  return database.kind === "sqlite" ? `file:${sqliteFilePath(database.url)}` : database.url;
}

async function execute(database: TestDatabase, sql: string): Promise<void> {
  if (database.kind === "sqlite") {
    const db = new Database(sqliteFilePath(database.url));
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
