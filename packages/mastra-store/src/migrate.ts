/**
 * Applies the store's migrations (migrations/<provider>/<name>/migration.sql, in name order) and
 * records them in `mastra_store_migrations`, a history of its own: the store shares its database
 * with the app that installs it, whose own migrations (Prisma's `_prisma_migrations`, Mastra's, the
 * console's) it never touches or depends on. All pending migrations apply in one transaction, under a
 * lock that makes concurrent migrators wait for each other (SQLite: BEGIN IMMEDIATE; PostgreSQL: an
 * advisory lock), so a database is never left half-migrated.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { databaseProvider, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";
import { HISTORY_TABLE, migrationsFolder, storeMigrationNames } from "./migration-status.ts";
import { requestExcerptOf } from "./conversation.ts";

export {
  appliedMigrationNames,
  migrateCommand,
  missingMigrationsMessage,
  pendingStoreMigrations,
  storeMigrationNames,
} from "./migration-status.ts";
export { absoluteDatabaseUrl, databaseProvider, redactUrl, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";
/**
 * Databases of the approvals console from before the store was a package have its tables from the
 * console's own migrations: the first migration is recorded as applied there instead of run.
 */
const BASELINE = "0001_init";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  /** Migrations run now, in order. */
  applied: string[];
  /** Migrations recorded as applied without running, because the tables they create were there. */
  baselined: string[];
}

/** The store's migrations for `provider`, in the order they apply. */
export async function readMigrations(provider: DatabaseProvider): Promise<Migration[]> {
  const folder = migrationsFolder(provider);
  const names = await storeMigrationNames(provider);
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(folder, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** Brings the store's tables in the database at `databaseUrl` up to date. Creates a missing SQLite file. */
export async function migrateStore(databaseUrl: string): Promise<MigrateResult> {
  const provider = databaseProvider(databaseUrl);
  const migrations = await readMigrations(provider);
  return provider === "sqlite" ? migrateSqlite(sqliteFilePath(databaseUrl), migrations) : migratePostgres(databaseUrl, migrations);
}

/** What a migrator does inside its locked transaction, the same on both databases. */
interface HistoryConnection {
  run(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
}

const CREATE_HISTORY = `CREATE TABLE IF NOT EXISTS "${HISTORY_TABLE}" (
  "name" TEXT NOT NULL PRIMARY KEY,
  "checksum" TEXT NOT NULL,
  "baselined" BOOLEAN NOT NULL,
  "applied_at" TEXT NOT NULL
)`;

async function applyPending(
  connection: HistoryConnection,
  migrations: Migration[],
  storeTableExists: () => Promise<boolean>,
  placeholder: (index: number) => string,
): Promise<MigrateResult> {
  await connection.run(CREATE_HISTORY);
  const recorded = new Set((await connection.query(`SELECT "name" FROM "${HISTORY_TABLE}"`)).map((row) => String(row.name)));
  const insert = `INSERT INTO "${HISTORY_TABLE}" ("name", "checksum", "baselined", "applied_at") VALUES (${[1, 2, 3, 4].map(placeholder).join(", ")})`;
  const result: MigrateResult = { applied: [], baselined: [] };
  if (recorded.size === 0 && (await storeTableExists())) {
    const baseline = migrations.find((migration) => migration.name === BASELINE);
    if (baseline) {
      await connection.query(insert, [baseline.name, baseline.checksum, true, new Date().toISOString()]);
      recorded.add(baseline.name);
      result.baselined.push(baseline.name);
    }
  }
  for (const migration of migrations) {
    if (recorded.has(migration.name)) continue;
    await connection.run(migration.sql);
    await DATA_STEPS[migration.name.replace(/^\d+_/, "")]?.(connection, placeholder);
    await connection.query(insert, [migration.name, migration.checksum, false, new Date().toISOString()]);
    result.applied.push(migration.name);
  }
  return result;
}

/**
 * Work a migration's SQL cannot do, run right after it in the same transaction: a crash leaves the
 * database as it was before the migration, never with the column and half its values. Named without
 * the number, which is each database's own (SQLite's 0006 is PostgreSQL's 0005).
 */
const DATA_STEPS: Record<string, (connection: HistoryConnection, placeholder: (index: number) => string) => Promise<void>> = {
  request_excerpt: backfillRequestExcerpts,
};

/** Rows read per batch by a data step: bounded memory whatever the backlog (snapshots are large). */
const BACKFILL_BATCH = 200;

/** The request excerpt of every run waiting when the column was added, read as the store writes it. */
async function backfillRequestExcerpts(connection: HistoryConnection, placeholder: (index: number) => string): Promise<void> {
  const [p1, p2] = [placeholder(1), placeholder(2)];
  const update = `UPDATE "workflow_snapshots" SET "request_excerpt" = ${p1} WHERE "workflow_name" = ${p2} AND "run_id" = ${placeholder(3)}`;
  let after: [string, string] = ["", ""];
  for (;;) {
    const rows = await connection.query(
      `SELECT "workflow_name", "run_id", "snapshot" FROM "workflow_snapshots"
       WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL AND ("workflow_name", "run_id") > (${p1}, ${p2})
       ORDER BY "workflow_name", "run_id" LIMIT ${BACKFILL_BATCH}`,
      after,
    );
    for (const row of rows) {
      const workflowName = String(row.workflow_name);
      let excerpt: string | null;
      try {
        excerpt = requestExcerptOf(workflowName, JSON.parse(String(row.snapshot)));
      } catch {
        excerpt = ""; // a snapshot that is not JSON has nothing to show
      }
      if (excerpt !== null) await connection.query(update, [excerpt, workflowName, row.run_id]);
    }
    if (rows.length < BACKFILL_BATCH) return;
    const last = rows.at(-1)!;
    after = [String(last.workflow_name), String(last.run_id)];
  }
}

async function migrateSqlite(filePath: string, migrations: Migration[]): Promise<MigrateResult> {
  const { mkdir } = await import("node:fs/promises");
  if (filePath !== ":memory:") await mkdir(path.dirname(filePath), { recursive: true });
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(filePath, { timeout: 10_000 });
  try {
    db.pragma("journal_mode = WAL");
    db.exec("BEGIN IMMEDIATE");
    const connection: HistoryConnection = {
      run: async (sql) => void db.exec(sql),
      query: async (sql, params = []) => {
        const statement = db.prepare(sql);
        const values = params.map((value) => (typeof value === "boolean" ? Number(value) : value));
        return statement.reader ? (statement.all(...values) as Array<Record<string, unknown>>) : (statement.run(...values), []);
      },
    };
    try {
      const exists = async () =>
        (await connection.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'workflow_snapshots'`)).length > 0;
      const result = await applyPending(connection, migrations, exists, () => "?");
      db.exec("COMMIT");
      return result;
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  } finally {
    db.close();
  }
}

async function migratePostgres(databaseUrl: string, migrations: Migration[]): Promise<MigrateResult> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    const connection: HistoryConnection = {
      run: async (sql) => void (await client.query(sql)),
      query: async (sql, params) => (await client.query(sql, params)).rows,
    };
    try {
      // Held until COMMIT: a second migrator waits here, then finds the history up to date.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('${HISTORY_TABLE}'))`);
      const exists = async () =>
        (await connection.query(`SELECT to_regclass('workflow_snapshots') IS NOT NULL AS "exists"`))[0]?.exists === true;
      const result = await applyPending(connection, migrations, exists, (index) => `$${index}`);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  } finally {
    await client.end();
  }
}
