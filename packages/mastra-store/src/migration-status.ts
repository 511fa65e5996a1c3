/**
 * Which of the store's migrations a database lacks. The store refuses to serve a database that lacks
 * any (PrismaWorkflowsStorage's init()), and an app sharing the database can refuse to start on it
 * (the approvals console does): a missing trigger would not fail a write, it would quietly leave the
 * summaries wrong. Reads only the history table the migrator keeps; changes nothing.
 *
 * Each database has its own list (migrations/<provider>): SQLite has 0005_quiet_rewrites, a speed-up
 * of SQLite's summary triggers that PostgreSQL's trigger functions did not get, so PostgreSQL stops
 * at 0004. The numbers name each provider's own history, not steps to keep in step (README.md).
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { databaseProvider, redactUrl, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";

export const HISTORY_TABLE = "mastra_store_migrations";

/** The folder of the package's migrations for `provider` (the same from src/ and dist/). */
export function migrationsFolder(provider: DatabaseProvider): string {
  // Not new URL("../migrations/" + provider, import.meta.url): bundlers (Next's Turbopack) take that
  // for an asset to resolve at build time, and fail on its dynamic part.
  return path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "migrations", provider);
}

/** The names of the package's migrations for `provider`, in the order they apply. */
export async function storeMigrationNames(provider: DatabaseProvider): Promise<string[]> {
  const entries = await readdir(migrationsFolder(provider), { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
}

/** The command that applies them, for messages. */
export function migrateCommand(databaseUrl?: string): string {
  return `npx mastra-store migrate --database-url ${databaseUrl ? `"${redactUrl(databaseUrl)}"` : "<url>"}`;
}

/** Why a database lacking `missing` cannot be served, in one line, naming the command that fixes it. */
export function missingMigrationsMessage(missing: string[], databaseUrl?: string): string {
  const where = databaseUrl ? ` in ${redactUrl(databaseUrl)}` : "";
  return (
    `The approvals store's migrations are not applied${where} (missing: ${missing.join(", ")}). ` +
    `Run \`${migrateCommand(databaseUrl)}\` (or with APPROVALS_DATABASE_URL set) first.`
  );
}

/** The store's migrations a database lacks, asked through a client already open on it. */
export async function missingStoreMigrations(
  db: { $queryRawUnsafe<T>(query: string): Promise<T> },
  provider: DatabaseProvider,
): Promise<string[]> {
  const applied = await db.$queryRawUnsafe<Array<{ name: string }>>(`SELECT "name" FROM "${HISTORY_TABLE}"`).then(
    (rows) => new Set(rows.map((row) => String(row.name))),
    () => new Set<string>(), // no history table: nothing applied
  );
  return (await storeMigrationNames(provider)).filter((name) => !applied.has(name));
}

/**
 * The store's migrations the database at `databaseUrl` lacks, in order (all of them for a SQLite file
 * that does not exist, which is not created). Rejects when the database cannot be reached.
 */
export async function pendingStoreMigrations(databaseUrl: string): Promise<string[]> {
  const expected = await storeMigrationNames(databaseProvider(databaseUrl));
  const applied = await appliedMigrationNames(databaseUrl, HISTORY_TABLE, `SELECT "name" FROM "${HISTORY_TABLE}"`);
  return expected.filter((name) => !applied.has(name));
}

/**
 * The names `nameQuery` reads from a migration history `table` (this package's, or another
 * migrator's such as Prisma's `_prisma_migrations`), over a short connection of its own that changes
 * nothing: none when the table (or the SQLite file) is not there. Rejects when the database cannot be
 * reached.
 */
export async function appliedMigrationNames(databaseUrl: string, table: string, nameQuery: string): Promise<Set<string>> {
  if (databaseProvider(databaseUrl) === "postgres") return postgresHistory(databaseUrl, table, nameQuery);
  return sqliteHistory(sqliteFilePath(databaseUrl), table, nameQuery);
}

async function sqliteHistory(filePath: string, table: string, nameQuery: string): Promise<Set<string>> {
  if (filePath === ":memory:" || !existsSync(filePath)) return new Set();
  const { default: Database } = await import("better-sqlite3");
  // Read-write but writing nothing: a read-only connection cannot open a WAL file whose -shm is gone.
  const db = new Database(filePath, { fileMustExist: true, timeout: 10_000 });
  try {
    if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table)) return new Set();
    return new Set((db.prepare(nameQuery).all() as Array<{ name: unknown }>).map((row) => String(row.name)));
  } finally {
    db.close();
  }
}

async function postgresHistory(databaseUrl: string, table: string, nameQuery: string): Promise<Set<string>> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT to_regclass($1::text) IS NOT NULL AS "exists"`, [table]);
    if (rows[0]?.exists !== true) return new Set();
    return new Set((await client.query(nameQuery)).rows.map((row) => String(row.name)));
  } finally {
    await client.end();
  }
}
