/**
 * Throwaway, fully migrated databases for tests.
 *
 *   const database = await createTestDatabase('postgres'); // or 'sqlite'
 *   // … use database.url like a DATABASE_URL …
 *   await database.drop(); // in afterAll, after closing your own connections to it
 *
 * SQLite: a file in a fresh temporary folder. PostgreSQL: a uniquely named database on the server
 * of POSTGRES_URL (an admin connection that may CREATE DATABASE; default: the local server as
 * `postgres`). Both are copies of a database migrated with deployMigrations (database-templates.ts):
 * the same tables, indexes and migration histories as migrating each one, for a fraction of the cost.
 */
import { randomUUID } from "node:crypto";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { type DatabaseProvider } from "../../lib/db/migrate.ts";
import { migratedTemplate, type PostgresAdmin } from "./database-templates.ts";

export interface TestDatabase {
  kind: DatabaseProvider;
  /** A `file:` or `postgres://` URL, as DATABASE_URL would be. */
  url: string;
  /** Deletes the database. Safe to call more than once; PostgreSQL sessions still open are ended. */
  drop(): Promise<void>;
}

export const POSTGRES_ADMIN_URL = process.env.POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";

/** With `migrate: false` the database is left empty (for tests of the migrators themselves). */
export async function createTestDatabase(kind: DatabaseProvider, { migrate = true } = {}): Promise<TestDatabase> {
  const template = migrate ? await migratedTemplate(kind, postgresAdmin) : undefined;
  return kind === "sqlite" ? createSqliteFile(template) : createPostgresDatabase(template);
}

/**
 * A fresh database for the enclosing `describe`: made in beforeAll, and, in afterAll, this process's
 * client closed and the database dropped. With `asDefault` it is also DATABASE_URL meanwhile, for
 * code that reads the default database (server actions, the Mastra instance).
 */
export function useTestDatabase(kind: DatabaseProvider, { asDefault = false } = {}): { readonly url: string } {
  let database: TestDatabase | undefined;
  const previousUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    if (asDefault) process.env.DATABASE_URL = database.url;
  });
  afterAll(async () => {
    if (asDefault) process.env.DATABASE_URL = previousUrl;
    if (!database) return;
    await disconnectDb(database.url);
    await database.drop();
  });
  return {
    get url() {
      if (!database) throw new Error("The test database exists only inside the describe's tests and hooks");
      return database.url;
    },
  };
}

async function createSqliteFile(template?: string): Promise<TestDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), "test-db-"));
  if (template) await copyFile(template, path.join(dir, "test.db"));
  return {
    kind: "sqlite",
    url: `file:${path.join(dir, "test.db")}`,
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

async function createPostgresDatabase(template?: string): Promise<TestDatabase> {
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  await adminQuery(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  return {
    kind: "postgres",
    url: postgresAdmin.urlOf(name),
    // FORCE: a test that forgot to close a pool should not leave databases behind.
    drop: async () => void (await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

async function adminQuery(sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const postgresAdmin: PostgresAdmin = {
  urlOf(name) {
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return url.toString();
  },
  query: adminQuery,
};
