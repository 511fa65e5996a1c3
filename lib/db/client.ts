/**
 * The one place that turns a database URL into a Prisma client. `file:` URLs are the embedded SQLite
 * default, `postgres://` / `postgresql://` URLs a shared PostgreSQL. Each provider has its own
 * generated client (prisma/{sqlite,postgres}); both expose the same models, so callers see one type.
 */
import { DEFAULT_DATABASE_URL, databaseProvider, sqliteFilePath } from "./database-url.ts";
import { forgetCached, processCache } from "../process-cache.ts";
import type { Sql } from "@prisma/client/runtime/client";
import type { SqlDriverAdapter } from "@prisma/driver-adapter-utils";
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
    let connection: SqlDriverAdapter | undefined;
    const db = new PrismaClient({
      adapter: serializedSqliteAdapter(sqliteFilePath(url), { onConnect: (opened) => (connection = opened) }),
    });
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    sqliteConnections.set(db, () => connection);
    await optimizeSqlite(db);
    return db;
  }
  const [{ PrismaClient }, { PrismaPg }] = await Promise.all([import("../generated/postgres/client.ts"), import("@prisma/adapter-pg")]);
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  // Both generated clients have the same models and methods; only their provider differs.
  return db as unknown as Db;
}

const sqliteConnections = new WeakMap<Db, () => SqlDriverAdapter | undefined>();

/**
 * Runs one write statement. On SQLite it goes straight to the connection Prisma itself uses, in the
 * same turn order as every other statement of the process, without the Prisma client's per-query
 * work (a third of a snapshot write's time: bench/write-path.ts); on PostgreSQL through the client.
 * For the hot path only: the store's snapshot write, which every agent step pays.
 */
export async function executeStatement(db: Db, statement: Sql): Promise<number> {
  const connection = sqliteConnections.get(db)?.();
  if (!connection) return db.$executeRaw(statement);
  return connection.executeRaw({
    sql: statement.sql,
    args: statement.values,
    argTypes: statement.values.map((value) => ({
      scalarType: value instanceof Date ? "datetime" : typeof value === "number" ? "int" : "string",
      arity: "scalar",
    })),
  });
}

/**
 * SQLite's query planner needs table statistics to choose between the listing's indexes: without
 * them, `agentId` + `threadId` ties between the agent index and the thread index, and SQLite walks
 * every run of the agent (178 ms at 100k instead of 1 ms). `PRAGMA optimize` gathers them (an
 * ANALYZE sampled within analysis_limit) only for tables that grew or shrank a lot since the last
 * time, as SQLite recommends for long-lived connections: when a connection opens, and periodically
 * (`optimizeDatabase`, from the server's maintenance loop). Stale statistics only cost speed, so a
 * failure (another process holding the write lock past the busy timeout) is logged, not thrown.
 */
async function optimizeSqlite(db: Db): Promise<void> {
  try {
    await db.$queryRawUnsafe("PRAGMA analysis_limit = 1000");
    await db.$queryRawUnsafe("PRAGMA optimize = 0x10002");
  } catch (error) {
    console.warn("[db] could not refresh SQLite's planner statistics:", error);
  }
}

/** Refreshes the planner's statistics where they went stale. PostgreSQL's autovacuum does this itself. */
export async function optimizeDatabase(url: string = databaseUrlFromEnv()): Promise<void> {
  if (databaseProvider(url) === "sqlite") await optimizeSqlite(await getDb(url));
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
