/**
 * The storage real Mastra agents use in this console: workflow snapshots (suspended runs) in the
 * store package's tables (packages/mastra-store), everything else Mastra keeps (memory threads and
 * messages, traces, …) in Mastra's own store for the same database, kept apart from our tables:
 *  - `file:` SQLite URL → LibSQLStore in a sibling file (`console.db` → `console.mastra.db`);
 *  - `postgres://` URL → PostgresStore in its own schema (`mastra`).
 * A team's own Mastra server adopts the store the same way (packages/mastra-store/README.md).
 */
import { setTimeout } from "node:timers/promises";
import { PrismaWorkflowsStorage, type StoreDb } from "@agent-approvals/mastra-store";
import { MastraCompositeStore } from "@mastra/core/storage";
import { getDb } from "../db/client.ts";
import { databaseProvider, sqliteFilePath } from "../db/database-url.ts";

export const MASTRA_PG_SCHEMA = "mastra";

export async function createMastraStorage(databaseUrl: string): Promise<MastraCompositeStore> {
  // The console's own client (its schema includes the store's models): one connection per process.
  const db: StoreDb = await getDb(databaseUrl);
  return new MastraCompositeStore({
    id: "approvals-console",
    name: "ApprovalsConsoleStore",
    default: await createMastraDefaultStore(databaseUrl),
    domains: { workflows: new PrismaWorkflowsStorage({ db }) },
  });
}

/** Mastra's own store for everything but workflow snapshots, beside ours in the same database. */
export async function createMastraDefaultStore(databaseUrl: string): Promise<MastraCompositeStore> {
  if (databaseProvider(databaseUrl) === "sqlite") {
    const { LibSQLStore } = await import("@mastra/libsql");
    const mastraFile = sqliteFilePath(databaseUrl).replace(/(\.db|\.sqlite3?)?$/, ".mastra.db");
    return new LibSQLStore({ id: "approvals-console-mastra", url: `file:${mastraFile}` });
  }
  const [{ PostgresStore }, { default: pg }] = await Promise.all([import("@mastra/pg"), import("pg")]);

  /**
   * Mastra creates its tables when a store is first used, with checks then changes that are not
   * atomic: several console instances (or agent hosts) starting together on a fresh database each
   * saw the tables missing and created them, and all but one failed
   * (MASTRA_STORAGE_PG_ADD_SPANS_PRIMARY_KEY_FAILED: three of four processes, seen here). One
   * process at a time does it, under a PostgreSQL advisory lock held for the setup; the others then
   * find it done.
   */
  class PostgresStoreSetUpOneAtATime extends PostgresStore {
    #setUp: Promise<void> | null = null;

    override async init(): Promise<void> {
      this.#setUp ??= setUpAlone(() => super.init()).catch((error: unknown) => {
        this.#setUp = null; // Mastra's own init is retried on the next use: so is this one.
        throw error;
      });
      await this.#setUp;
    }
  }

  async function setUpAlone(setUp: () => Promise<void>): Promise<void> {
    const lock = new pg.Client({ connectionString: databaseUrl });
    await lock.connect();
    try {
      // Tried, not waited for: a session waiting in pg_advisory_lock holds a snapshot, and Mastra's
      // CREATE INDEX CONCURRENTLY waits for every snapshot to go, so the two waited for each other.
      for (let pause = 50; !(await tookLock(lock)); pause = Math.min(pause * 2, 1_000)) await setTimeout(pause);
      await setUp();
    } finally {
      // Ending the session releases its advisory lock whatever happened.
      await lock.end().catch(() => undefined);
    }
  }

  return new PostgresStoreSetUpOneAtATime({
    id: "approvals-console-mastra",
    connectionString: databaseUrl,
    schemaName: MASTRA_PG_SCHEMA,
  });
}

async function tookLock(session: { query(text: string, values: unknown[]): Promise<{ rows: Array<{ took: boolean }> }> }) {
  const { rows } = await session.query("SELECT pg_try_advisory_lock($1) AS took", [MASTRA_SETUP_LOCK]);
  return rows[0]?.took === true;
}

/** The advisory lock key under which one process at a time sets up Mastra's tables (any fixed bigint of ours). */
const MASTRA_SETUP_LOCK = 0x61707072_6d737472n.toString();
