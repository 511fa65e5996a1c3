// `npm run db:migrate -- <name>`: the `prisma migrate dev --name <name>` of this project. Creates
// the migration for BOTH providers from prisma/<provider>/schema.prisma, each against a throwaway
// database: a temporary SQLite file, and a temporary PostgreSQL database created on POSTGRES_URL's
// server (default: the local one) and dropped afterwards.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { redactUrl } from "../lib/db/database-url.ts";
import { createMigration, type CreatedMigration, type DatabaseProvider } from "../lib/db/migrate.ts";

const adminUrl = process.env.POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const name = process.argv[2];

async function withTempSqlite<T>(run: (url: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "db-migrate-"));
  try {
    return await run(`file:${path.join(dir, "dev.db")}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function withTempPostgres<T>(run: (url: string) => Promise<T>): Promise<T> {
  const database = `migrate_dev_${randomUUID().replaceAll("-", "")}`;
  await adminQuery(`CREATE DATABASE "${database}"`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return await run(url.toString());
  } finally {
    await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    await client.query(sql);
  } catch (error) {
    throw new Error(`PostgreSQL at ${redactUrl(adminUrl)} (set POSTGRES_URL): ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

function report(provider: DatabaseProvider, created: CreatedMigration): void {
  if (created.name === null) console.log(`${provider}: the schema has no changes, no migration created.`);
  else console.log(`${provider}: created ${path.relative(process.cwd(), created.directory ?? created.name)}`);
}

if (!name || !/^[A-Za-z0-9_-]+$/.test(name)) {
  console.error("Usage: npm run db:migrate -- <name>   (letters, digits, _ and - only)");
  process.exit(2);
}

try {
  const sqlite = await withTempSqlite((url) => createMigration("sqlite", name, url));
  report("sqlite", sqlite);
  const postgres = await withTempPostgres((url) => createMigration("postgres", name, url));
  report("postgres", postgres);
  if (sqlite.name !== null || postgres.name !== null) {
    console.log("Next: `npm run db:generate` for the new schema, `npm run db:deploy` to apply the migration.");
  }
  process.exit(0);
} catch (error) {
  console.error("Creating the migration failed:", error instanceof Error ? error.message : error);
  process.exit(1);
}
