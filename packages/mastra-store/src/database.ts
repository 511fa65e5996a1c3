/**
 * Opening a Prisma client on the store's database, for the package's own client and for any other
 * client generated from a schema that includes the store's models (the console's): SQLite through
 * the serialized adapter (sqlite-adapter.ts), PostgreSQL through Prisma's pg adapter. A process that
 * opens several clients on one SQLite file should open one and share it: each client is its own
 * connection, and two connections of one process wait on each other's locks.
 */
import type { Sql } from "@prisma/client/runtime/client";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { databaseProvider, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";
import type { PrismaClient as StorePrismaClient } from "./generated/sqlite/client.ts";
import type { SerializedSqliteAdapter } from "./sqlite-adapter.ts";

/**
 * What the store needs of a Prisma client: the methods it calls. Any client generated from a schema
 * that includes the store's models has them (the console's does), though TypeScript cannot relate
 * two generated clients' full types.
 */
export interface StoreDb {
  departedToolCall: Pick<StorePrismaClient["departedToolCall"], "deleteMany">;
  waitingToolCall: Pick<StorePrismaClient["waitingToolCall"], "deleteMany">;
  workflowSnapshot: Pick<
    StorePrismaClient["workflowSnapshot"],
    "findUnique" | "findFirst" | "findMany" | "count" | "create" | "updateMany" | "deleteMany"
  >;
  $executeRaw: StorePrismaClient["$executeRaw"];
  $queryRaw: StorePrismaClient["$queryRaw"];
  $queryRawUnsafe: StorePrismaClient["$queryRawUnsafe"];
}

type ClientClass<C> = new (options: { adapter: SqlDriverAdapterFactory }) => C;

/** The SQLite page cache of a connection, in KiB. */
const SQLITE_CACHE_KIB = 32 * 1024;

/** The generated client classes to open a database with, per provider, loaded only when needed. */
export interface ClientClasses<C> {
  sqlite: () => Promise<ClientClass<C>>;
  postgres: () => Promise<ClientClass<C>>;
}

/** A new client of `classes` on `databaseUrl` (a relative SQLite path resolves against the working directory). */
export async function connectDatabase<C extends Pick<StoreDb, "$queryRawUnsafe">>(
  databaseUrl: string,
  classes: ClientClasses<C>,
): Promise<C> {
  if (databaseProvider(databaseUrl) === "sqlite") {
    const [PrismaClient, { serializedSqliteAdapter }] = await Promise.all([classes.sqlite(), import("./sqlite-adapter.ts")]);
    // Several processes (servers, agent hosts, scripts) share the file: statements take turns within
    // a process, a busy timeout makes them wait across processes, and WAL (kept in the file) lets
    // readers go on while one writes.
    let connection: SerializedSqliteAdapter | undefined;
    const db = new PrismaClient({
      adapter: serializedSqliteAdapter(sqliteFilePath(databaseUrl), { onConnect: (opened) => (connection = opened) }),
    });
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    // SQLite's default page cache (2 MB) holds less than one queue page's working set at 100k runs
    // (a page's ~900 calls are as many key look-ups into a multi-GB file): every page then went
    // back to the OS for the same pages, 12 ms instead of 3.5. Filled only as pages are read.
    await db.$queryRawUnsafe(`PRAGMA cache_size = -${SQLITE_CACHE_KIB}`);
    sqliteConnections.set(db, () => connection);
    await refreshPlannerStatistics(db);
    return db;
  }
  const [PrismaClient, { PrismaPg }] = await Promise.all([classes.postgres(), import("@prisma/adapter-pg")]);
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, onConnect: withoutJit }) });
  postgresClients.add(db);
  return db;
}

/**
 * PostgreSQL's JIT compiles every plan whose estimated cost passes jit_above_cost (100,000 by
 * default, on in Debian's and most builds). Estimated costs grow with the backlog: at a million
 * waiting runs the queue's groupings cross it, and compiling one took 28 ms or more before it ran
 * (EXPLAIN ANALYZE's "JIT: Timing"), far more than the statement itself. Every statement
 * of the store and the console is a short read or write that JIT never pays back, so each new
 * connection turns it off (pg-pool awaits this before handing the connection out). Set by a
 * statement rather than the startup "options" parameter, which PgBouncer refuses for settings it
 * does not track. A server without JIT (before 11, or built without LLVM) keeps the connection.
 */
async function withoutJit(client: { query(text: string): Promise<unknown> }): Promise<void> {
  await client.query("SET jit = off").catch(() => undefined);
}

/** The package's own client: the store's models only. */
export function connectStoreDatabase(databaseUrl: string): Promise<StoreDb> {
  return connectDatabase<StoreDb>(databaseUrl, {
    sqlite: async () => (await import("./generated/sqlite/client.ts")).PrismaClient as unknown as ClientClass<StoreDb>,
    postgres: async () => (await import("./generated/postgres/client.ts")).PrismaClient as unknown as ClientClass<StoreDb>,
  });
}

const sqliteConnections = new WeakMap<object, () => SerializedSqliteAdapter | undefined>();

const postgresClients = new WeakSet<object>();

/**
 * Which database a client is on: known for clients opened here; for one a caller opened itself,
 * asked of the database (only SQLite has sqlite_version()).
 */
export async function clientProvider(db: Pick<StoreDb, "$queryRawUnsafe">): Promise<DatabaseProvider> {
  if (sqliteConnections.has(db)) return "sqlite";
  if (postgresClients.has(db)) return "postgres";
  return db.$queryRawUnsafe("SELECT sqlite_version()").then(
    () => "sqlite" as const,
    () => "postgres" as const,
  );
}

/**
 * Runs one write statement. On SQLite it goes straight to the connection Prisma itself uses, in the
 * same turn order as every other statement of the process, compiled once per connection
 * (sqlite-adapter.ts) and without the Prisma client's per-query work; on PostgreSQL through the
 * client. For the hot path only: the snapshot write, which every agent step pays.
 */
export async function executeStatement(db: Pick<StoreDb, "$executeRaw">, statement: Sql): Promise<number> {
  const connection = sqliteConnections.get(db)?.();
  if (!connection) return db.$executeRaw(statement);
  return connection.run(statement.sql, statement.values);
}

/**
 * Runs one read statement and returns its rows as objects keyed by column name. On SQLite it goes
 * straight to the connection (like executeStatement), skipping the Prisma client's per-row work:
 * for reads of hundreds of rows (a queue page's ~900 calls) that work cost more than the SQL.
 * Values come as the driver gives them: DATETIME columns as their stored text on SQLite (a Date on
 * PostgreSQL), integers as numbers.
 */
export async function queryStatement<T>(db: Pick<StoreDb, "$queryRaw">, statement: Sql): Promise<T[]> {
  const connection = sqliteConnections.get(db)?.();
  if (!connection) return db.$queryRaw<T[]>(statement);
  return rowObjects<T>(await connection.query(statement.sql, statement.values));
}

/** The statements of a transaction opened by `statementTransaction`. */
export interface StatementTransaction {
  /** Runs one write statement; resolves to the rows it changed. */
  execute(statement: Sql): Promise<number>;
  /** Runs one read statement; its rows as objects keyed by column name, as queryStatement gives them. */
  query<T>(statement: Sql): Promise<T[]>;
}

/** What `statementTransaction` needs of a client: raw statements inside an interactive transaction. */
export interface TransactionalDb {
  $transaction<R>(work: (tx: Pick<StoreDb, "$executeRaw" | "$queryRaw">) => Promise<R>): Promise<R>;
}

/**
 * Runs `work` as one transaction of raw statements. On SQLite it is one turn on the connection
 * Prisma itself uses (BEGIN IMMEDIATE … COMMIT, ROLLBACK when `work` throws), each statement
 * compiled once per connection, without the Prisma client's per-query and per-transaction work;
 * on PostgreSQL an interactive transaction of the client. For the hot path only: what a decision
 * writes once its agent has answered.
 */
export async function statementTransaction<T>(db: object, work: (tx: StatementTransaction) => Promise<T>): Promise<T> {
  const connection = sqliteConnections.get(db)?.();
  if (connection?.compilesOnce) {
    return connection.transaction((compiled) =>
      work({
        execute: (statement) => compiled.run(statement.sql, statement.values),
        query: async <R>(statement: Sql) => rowObjects<R>(await compiled.query(statement.sql, statement.values)),
      }),
    );
  }
  return (db as TransactionalDb).$transaction((tx) =>
    work({ execute: (statement) => tx.$executeRaw(statement), query: <R>(statement: Sql) => tx.$queryRaw<R[]>(statement) }),
  );
}

function rowObjects<T>({ columnNames, rows }: { columnNames: string[]; rows: unknown[][] }): T[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) row[columnNames[i]!] = values[i];
    return row as T;
  });
}

/**
 * Whether `db` is a PostgreSQL client opened here (connectDatabase). There every statement is a round
 * trip over the network, and BEGIN and COMMIT are two more: a caller may then write in one statement
 * (data-modifying CTEs, which SQLite lacks) what it writes elsewhere as a transaction of several.
 * False for a client opened elsewhere, whose caller keeps the transaction (correct on either database).
 */
export function isPostgresClient(db: object): boolean {
  return postgresClients.has(db);
}

/** Whether the SQLite client `db` reuses compiled statements for executeStatement and queryStatement. */
export function compilesStatementsOnce(db: object): boolean {
  return sqliteConnections.get(db)?.()?.compilesOnce ?? false;
}

/**
 * SQLite's query planner needs table statistics to choose between the store's indexes: without them,
 * `agentId` + `threadId` ties between the agent index and the thread index, and SQLite walks every
 * run of the agent (178 ms at 100k instead of 1 ms). `PRAGMA optimize` gathers them (an ANALYZE
 * sampled within analysis_limit) only for tables that grew or shrank a lot since the last time, as
 * SQLite recommends for long-lived connections: when a connection opens, and periodically. Stale
 * statistics only cost speed, so a failure (another process holding the write lock past the busy
 * timeout) is logged, not thrown. A no-op on PostgreSQL, whose autovacuum does this itself.
 */
export async function refreshPlannerStatistics(db: Pick<StoreDb, "$queryRawUnsafe">): Promise<void> {
  if (!sqliteConnections.has(db)) return;
  try {
    await db.$queryRawUnsafe("PRAGMA analysis_limit = 1000");
    await db.$queryRawUnsafe("PRAGMA optimize = 0x10002");
  } catch (error) {
    console.warn("[mastra-store] could not refresh SQLite's planner statistics:", error);
  }
}
