/**
 * The one place that turns a database URL into a Prisma client. `file:` URLs are the embedded SQLite
 * default, `postgres://` / `postgresql://` URLs a shared PostgreSQL. Each provider has its own
 * generated client (prisma/{sqlite,postgres}); both expose the same models, so callers see one type.
 */
import { DEFAULT_DATABASE_URL, databaseProvider, sqliteFilePath } from "./database-url.ts";
import { forgetCached, processCache } from "../process-cache.ts";
import type { PrismaClient as SqlitePrismaClient } from "../generated/sqlite/client.ts";

export type Db = SqlitePrismaClient;

export function databaseUrlFromEnv(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** A new client for `url`. Prefer `getDb`, which keeps one per URL for the whole process. */
export async function createDb(url: string): Promise<Db> {
  if (databaseProvider(url) === "sqlite") {
    const [{ PrismaClient }, { serializedSqliteAdapter }] = await Promise.all([
      import("../generated/sqlite/client.ts"),
      import("./sqlite-adapter.ts"),
    ]);
    // Several processes (console servers, agent hosts, the seed) share the file: statements take
    // turns within a process, a busy timeout makes them wait across processes, and WAL (kept in the
    // file) lets readers go on while one writes.
    const db = new PrismaClient({ adapter: serializedSqliteAdapter(sqliteFilePath(url)) });
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    return db;
  }
  const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
    import("../generated/postgres/client.ts"),
    import("@prisma/adapter-pg"),
  ]);
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  // Both generated clients have the same models and methods; only their provider differs.
  return db as unknown as Db;
}

const clients = processCache("db", createDb);

/** The process-wide client for `url` (default: DATABASE_URL), created on first use. */
export function getDb(url: string = databaseUrlFromEnv()): Promise<Db> {
  return clients(url);
}

export async function disconnectDb(url: string): Promise<void> {
  const db = forgetCached("db", url) as Promise<Db> | undefined;
  if (db) await (await db).$disconnect();
}
