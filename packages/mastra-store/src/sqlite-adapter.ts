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
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";

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

class SerializedSqliteAdapter implements SqlDriverAdapter {
  readonly provider: SqlDriverAdapter["provider"];
  readonly adapterName: string;
  readonly #inner: SqlDriverAdapter;
  readonly #turns = new Turns();

  constructor(inner: SqlDriverAdapter) {
    this.#inner = inner;
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
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

/** `onConnect` receives the connection Prisma opens, for statements sent without the Prisma client (client.ts). */
export function serializedSqliteAdapter(
  filePath: string,
  { busyTimeoutMs = 10_000, onConnect }: { busyTimeoutMs?: number; onConnect?: (connection: SqlDriverAdapter) => void } = {},
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
