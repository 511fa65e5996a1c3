// Driver adapters for the wasm schema engine (lib/db/schema-engine.ts). The engine opens connections
// through these but never closes them, so each factory remembers what it opened and `close()`
// disposes of it all: that releases SQLite's exclusive lock and lets Node exit after pg was used.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  type ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import pg from "pg";
import { databaseProvider, sqliteFilePath } from "./database-url.ts";

export interface MigrationAdapter {
  factory: ErrorCapturingSqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}

// A second process deploying to the same SQLite file waits for the first one's exclusive lock
// (the engine takes it for the whole run) instead of failing after better-sqlite3's default 5 s.
const SQLITE_BUSY_TIMEOUT_MS = 120_000;

export function createMigrationAdapter(databaseUrl: string): MigrationAdapter {
  const factory = databaseProvider(databaseUrl) === "sqlite" ? sqliteFactory(databaseUrl) : new PostgresMigrationFactory(databaseUrl);
  const tracked = new TrackingFactory(factory);
  return { factory: bindMigrationAwareSqlAdapterFactory(tracked), close: () => tracked.close() };
}

function sqliteFactory(databaseUrl: string): SqlMigrationAwareDriverAdapterFactory {
  const file = sqliteFilePath(databaseUrl);
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  // The native engine stores DateTime values as Unix milliseconds on SQLite; matching that keeps
  // `_prisma_migrations` rows identical whichever engine wrote them. The shadow database (used only
  // when creating or checking migrations) is the adapter's default, an in-memory database.
  const inner = new PrismaBetterSqlite3({ url: file, timeout: SQLITE_BUSY_TIMEOUT_MS }, { timestampFormat: "unixepoch-ms" });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => allowMultiStatementSql(await inner.connect()),
    connectToShadowDb: async () => allowMultiStatementSql(await inner.connectToShadowDb()),
  };
}

/**
 * The engine replays whole migration scripts on the shadow database through `executeRaw`, which
 * better-sqlite3 refuses for more than one statement ("The supplied SQL string contains more than
 * one statement"); the native engine runs them as a batch. Do the same for parameterless SQL.
 */
function allowMultiStatementSql(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      const multiStatement = error instanceof RangeError && error.message.includes("more than one statement");
      if (!multiStatement || query.args.length > 0) throw error;
      await adapter.executeScript(query.sql);
      return 0;
    }
  };
  return adapter;
}

class TrackingFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider: SqlMigrationAwareDriverAdapterFactory["provider"];
  readonly adapterName: string;
  readonly #inner: SqlMigrationAwareDriverAdapterFactory;
  readonly #open = new Set<SqlDriverAdapter>();

  constructor(inner: SqlMigrationAwareDriverAdapterFactory) {
    this.#inner = inner;
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  async connect(): Promise<SqlDriverAdapter> {
    return this.#track(await this.#inner.connect());
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    return this.#track(await this.#inner.connectToShadowDb());
  }

  #track(adapter: SqlDriverAdapter): SqlDriverAdapter {
    this.#open.add(adapter);
    const dispose = adapter.dispose.bind(adapter);
    // Whether or not the engine disposes of an adapter itself, it must happen exactly once.
    adapter.dispose = async () => {
      if (!this.#open.delete(adapter)) return;
      await dispose();
    };
    return adapter;
  }

  async close(): Promise<void> {
    const results = await Promise.allSettled([...this.#open].map((adapter) => adapter.dispose()));
    const failure = results.find((result) => result.status === "rejected");
    if (failure) throw failure.reason;
  }
}

// OIDs from pg_type. Postgres' internal one-byte `"char"` type shows up in the catalog queries the
// engine runs (pg_class.relkind, pg_constraint.contype, …); adapter-pg 7.10.0 has no mapping for it
// and fails the query, yet its value is just a one-character string.
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

function reportCharAsText<T>(result: T): T {
  for (const entry of Array.isArray(result) ? result : [result]) {
    const fields: unknown = (entry as { fields?: unknown } | null)?.fields;
    if (!Array.isArray(fields)) continue;
    for (const field of fields as { dataTypeID: number }[]) {
      if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    }
  }
  return result;
}

// Pool and transaction queries both go through Client#query; pg-pool calls it with a callback,
// adapter-pg's transactions with a promise.
class CharAsTextClient extends pg.Client {
  // `any`: a single override has to satisfy all of pg's query() overloads.
  override query(...args: any[]): any {
    const query: (...queryArgs: unknown[]) => unknown = super.query;
    const callback: unknown = args.at(-1);
    if (typeof callback === "function") {
      const wrapped = (error: unknown, result: unknown) => callback(error, error ? result : reportCharAsText(result));
      return query.apply(this, [...args.slice(0, -1), wrapped]);
    }
    const result = query.apply(this, args);
    return result instanceof Promise ? result.then(reportCharAsText) : result;
  }
}

/**
 * adapter-pg 7.10.0's executeScript splits a migration on every ";" and runs the pieces one by one,
 * which breaks any statement holding a semicolon (a PL/pgSQL function body, a string literal). The
 * native engine sends the script as one batch; do the same: one simple-protocol query, which
 * PostgreSQL runs as a single implicit transaction.
 */
function wholeScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const internals = adapter as unknown as { client?: pg.Pool; onError?: (error: unknown) => never };
  const pool = internals.client;
  if (!pool || typeof pool.query !== "function") return adapter;
  adapter.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (error) {
      if (internals.onError) internals.onError.call(adapter, error);
      throw error;
    }
  };
  return adapter;
}

/**
 * adapter-pg's own shadow database support is unusable here: given a connection string it connects
 * the "shadow" pool back to the main database, and it drops the shadow database while its own pool
 * still holds connections. This factory creates the shadow database itself and drops it
 * `WITH (FORCE)` after closing the shadow pool. The role needs CREATEDB for that (only when
 * creating or checking migrations; deploying never uses a shadow database).
 */
class PostgresMigrationFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres";
  readonly adapterName = "@prisma/adapter-pg";
  readonly #databaseUrl: string;
  readonly #main: PrismaPg;

  constructor(databaseUrl: string) {
    this.#databaseUrl = databaseUrl;
    this.#main = this.#adapterFactory(databaseUrl);
  }

  async connect(): Promise<SqlDriverAdapter> {
    return wholeScripts(await this.#main.connect());
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = `prisma_migrate_shadow_db_${randomUUID().replaceAll("-", "")}`;
    await this.#adminQuery(`CREATE DATABASE "${name}"`);
    const shadowUrl = new URL(this.#databaseUrl);
    shadowUrl.pathname = `/${name}`;
    const adapter = wholeScripts(await this.#adapterFactory(shadowUrl.toString()).connect());
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await this.#adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
    return adapter;
  }

  #adapterFactory(connectionString: string): PrismaPg {
    // Prisma's `?schema=` URL parameter is not a libpq one; adapter-pg takes it as an option.
    const schema = new URL(connectionString).searchParams.get("schema") ?? undefined;
    // No idle timeout: the engine holds its advisory lock on one pooled connection until close().
    const config: pg.PoolConfig = { connectionString, Client: CharAsTextClient, max: 4, idleTimeoutMillis: 0 };
    // adapter-pg is typed against its own copy of @types/pg; the runtime pg is the same.
    return new PrismaPg(config as ConstructorParameters<typeof PrismaPg>[0], { schema });
  }

  async #adminQuery(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.#databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}
