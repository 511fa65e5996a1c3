/**
 * SQLite shared by several processes (console servers, agent hosts, the seed), made safe.
 *
 * Prisma's better-sqlite3 adapter has one connection per client and runs statements from outside a
 * transaction on that same connection while a transaction is open: they silently join it, and are
 * lost if it rolls back (a unique violation when two reviewers decide at once does exactly that).
 * Its transactions also start with a deferred BEGIN, so across processes a read-then-write
 * transaction can fail with SQLITE_BUSY instead of waiting.
 *
 * This factory wraps it: every statement and every transaction of a process takes its turn on the
 * connection (turns pass through the event loop, so a long queue never shuts out I/O), and
 * transactions start with BEGIN IMMEDIATE (they wait for the write lock up front, within the busy
 * timeout, and can no longer fail half-way for a lock).
 */
import { createHash } from "node:crypto";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import type { Database, Statement } from "better-sqlite3";
import { CompiledStatements, KeptStatement } from "./compiled-statements.ts";

/**
 * A FIFO lock: each holder runs alone, in arrival order. A turn is handed to the next holder on the
 * event loop's next iteration (setImmediate), not in a microtask: better-sqlite3 runs a statement
 * synchronously and its caller goes on in a microtask, so with many requests in flight their
 * statements and all the work between them run as one unbroken chain of microtasks, and until it
 * ends the process accepts no connection, reads no request and fires no timer (200 clients: stalls
 * of 1-2 s, some connections not accepted for a whole load test; bench/load.ts). PostgreSQL
 * statements yield by themselves: each waits for its socket. The price is one event-loop iteration
 * per statement, ~10% of the throughput of a saturated server; handing over in microtasks for up
 * to 5 ms at a time kept that throughput but left p99 up to twice as high.
 */
class Turns {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves once it is the caller's turn, with the function that ends it. */
  take(): Promise<() => void> {
    let end!: () => void;
    const turn = new Promise<void>((resolve) => (end = () => setImmediate(resolve)));
    const ready = this.#tail.then(() => end);
    this.#tail = this.#tail.then(() => turn);
    return ready;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const end = await this.take();
    try {
      return await work();
    } finally {
      end();
    }
  }
}

/** An argument as Prisma's better-sqlite3 adapter stores it: dates as ISO 8601 text with "+00:00", booleans as 0/1. */
function storedArgument(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** A column value as Prisma's adapter reads it: integers as numbers where they fit (its connection reads them as bigint). */
function readValue(value: unknown): unknown {
  if (typeof value !== "bigint") return value;
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
}

/**
 * Prisma's adapter keeps its better-sqlite3 connection as `client`. If a release stops doing so,
 * statements go through the adapter as before (each compiled anew: slower, still correct);
 * tests/db/compiled-statements.test.ts fails so that someone notices.
 */
function nativeConnectionOf(adapter: SqlDriverAdapter): Database | undefined {
  const client = (adapter as { client?: Partial<Database> }).client;
  return typeof client?.prepare === "function" && typeof client.pragma === "function" ? (client as Database) : undefined;
}

/**
 * SQL functions SQLite lacks and the schema's triggers use: sha256_hex(text), the hex SHA-256 of the
 * text's UTF-8 bytes, as PostgreSQL's encode(sha256(convert_to(text, 'UTF8')), 'hex') (the audit
 * log's hash chain, prisma/sqlite/migrations/*_audit_chain).
 */
function registerFunctions(native: Database): void {
  native.function("sha256_hex", { deterministic: true }, (text: unknown) =>
    text === null ? null : createHash("sha256").update(String(text), "utf8").digest("hex"),
  );
}

export class SerializedSqliteAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter["provider"];
  readonly adapterName: string;
  readonly #inner: SqlDriverAdapter;
  readonly #turns = new Turns();
  readonly #compiled: CompiledStatements | undefined;
  readonly #native: Database | undefined;

  constructor(inner: SqlDriverAdapter) {
    this.#inner = inner;
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
    const native = nativeConnectionOf(inner);
    this.#native = native;
    if (native) {
      registerFunctions(native);
      const prepare = native.prepare.bind(native);
      const compiled = new CompiledStatements(prepare);
      this.#compiled = compiled;
      // Prisma's own queries too: compiling was a third of a page's small reads (bench/README.md).
      native.prepare = ((sql: string) => new KeptStatement(compiled.get(sql))) as unknown as Database["prepare"];
    }
  }

  /** Whether `run` and `query` reuse compiled statements (else each goes through Prisma's adapter). */
  get compilesOnce(): boolean {
    return this.#compiled !== undefined;
  }

  /** Runs one write statement in its turn, compiled once per connection; resolves to the rows it changed. */
  run(sql: string, values: readonly unknown[]): Promise<number> {
    const compiled = this.#compiled;
    if (!compiled) return this.executeRaw(adapterQuery(sql, values));
    return this.#turns.run(async () => compiled.get(sql).run(...values.map(storedArgument)).changes);
  }

  /** Runs one read statement in its turn, compiled once per connection: its column names and rows of values. */
  query(sql: string, values: readonly unknown[]): Promise<{ columnNames: string[]; rows: unknown[][] }> {
    const compiled = this.#compiled;
    if (!compiled) return this.queryRaw(adapterQuery(sql, values));
    return this.#turns.run(async () => rowsOf(compiled.get(sql), values));
  }

  /**
   * Runs `work` as one transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK if it throws) in one turn,
   * its statements compiled once per connection like `run` and `query`. Only when `compilesOnce`.
   */
  async transaction<T>(work: (statements: CompiledTransaction) => Promise<T>): Promise<T> {
    const compiled = this.#compiled!;
    const end = await this.#turns.take();
    try {
      compiled.get("BEGIN IMMEDIATE").run();
      try {
        const result = await work({
          run: async (sql, values) => compiled.get(sql).run(...values.map(storedArgument)).changes,
          query: async (sql, values) => rowsOf(compiled.get(sql), values),
        });
        compiled.get("COMMIT").run();
        return result;
      } catch (error) {
        const native = this.#native!;
        if (native.inTransaction) compiled.get("ROLLBACK").run();
        throw error;
      }
    } finally {
      end();
    }
  }

  queryRaw(query: SqlQuery) {
    return this.#turns.run(() => this.#inner.queryRaw(query));
  }

  executeRaw(query: SqlQuery) {
    return this.#turns.run(() => this.#inner.executeRaw(query));
  }

  executeScript(script: string) {
    return this.#turns.run(() => this.#inner.executeScript(script));
  }

  getConnectionInfo() {
    return this.#inner.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }

  dispose() {
    return this.#turns.run(() => this.#inner.dispose());
  }

  async startTransaction(): Promise<Transaction> {
    const end = await this.#turns.take();
    try {
      await this.#inner.executeRaw({ sql: "BEGIN IMMEDIATE", args: [], argTypes: [] });
    } catch (error) {
      end();
      throw error;
    }
    const inner = this.#inner;
    let open = true;
    const finish = async () => {
      if (open) {
        open = false;
        end();
      }
    };
    const statement = (sql: string) => inner.executeRaw({ sql, args: [], argTypes: [] }).then(() => undefined);
    // Prisma sends COMMIT / ROLLBACK itself (usePhantomQuery: false); commit() and rollback() only
    // hand the connection to the next in line.
    return {
      provider: inner.provider,
      adapterName: inner.adapterName,
      options: { usePhantomQuery: false },
      queryRaw: (query) => inner.queryRaw(query),
      executeRaw: (query) => inner.executeRaw(query),
      commit: finish,
      rollback: finish,
      createSavepoint: (name) => statement(`SAVEPOINT ${name}`),
      rollbackToSavepoint: (name) => statement(`ROLLBACK TO ${name}`),
      releaseSavepoint: (name) => statement(`RELEASE SAVEPOINT ${name}`),
    };
  }
}

/** A read statement's column names and rows of values (a write's: none), as `query` returns them. */
function rowsOf(statement: Statement, values: readonly unknown[]): { columnNames: string[]; rows: unknown[][] } {
  if (!statement.reader) {
    statement.run(...values.map(storedArgument));
    return { columnNames: [], rows: [] };
  }
  const columnNames = statement.columns().map((column) => column.name);
  const rows = (statement.raw(true).all(...values.map(storedArgument)) as unknown[][]).map((row) => row.map(readValue));
  return { columnNames, rows };
}

/** The statements of a transaction on the connection (SerializedSqliteAdapter.transaction). */
export interface CompiledTransaction {
  run(sql: string, values: readonly unknown[]): Promise<number>;
  query(sql: string, values: readonly unknown[]): Promise<{ columnNames: string[]; rows: unknown[][] }>;
}

/** A statement for Prisma's adapter, typed as Prisma types the values of a tagged template. */
function adapterQuery(sql: string, values: readonly unknown[]): SqlQuery {
  return {
    sql,
    args: [...values],
    argTypes: values.map((value) => ({
      scalarType: value instanceof Date ? ("datetime" as const) : typeof value === "number" ? ("int" as const) : ("string" as const),
      arity: "scalar" as const,
    })),
  };
}

/** `onConnect` receives the connection Prisma opens, for statements sent without the Prisma client (database.ts). */
export function serializedSqliteAdapter(
  filePath: string,
  { busyTimeoutMs = 10_000, onConnect }: { busyTimeoutMs?: number; onConnect?: (connection: SerializedSqliteAdapter) => void } = {},
): SqlDriverAdapterFactory {
  const factory = new PrismaBetterSqlite3({ url: `file:${filePath}`, timeout: busyTimeoutMs });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const connection = new SerializedSqliteAdapter(await factory.connect());
      onConnect?.(connection);
      return connection;
    },
  };
}
