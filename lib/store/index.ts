/**
 * The storage real Mastra agents use in this console: workflow snapshots (suspended runs) in the
 * store package's tables (packages/mastra-store), everything else Mastra keeps (memory threads and
 * messages, traces, …) in Mastra's own store for the same database, kept apart from our tables:
 *  - `file:` SQLite URL → LibSQLStore in a sibling file (`console.db` → `console.mastra.db`);
 *  - `postgres://` URL → PostgresStore in its own schema (`mastra`).
 * A team's own Mastra server adopts the store the same way (packages/mastra-store/README.md).
 */
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
  const { PostgresStore } = await import("@mastra/pg");
  return new PostgresStore({
    id: "approvals-console-mastra",
    connectionString: databaseUrl,
    schemaName: MASTRA_PG_SCHEMA,
  });
}
