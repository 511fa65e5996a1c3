/**
 * The storage real Mastra agents use in this console: workflow snapshots (suspended runs) in our
 * Prisma-managed tables, everything else Mastra keeps (memory threads and messages, traces, …) in
 * Mastra's own store for the same database, kept apart from our tables:
 *  - `file:` SQLite URL → LibSQLStore in a sibling file (`console.db` → `console.mastra.db`);
 *  - `postgres://` URL → PostgresStore in its own schema (`mastra`).
 */
import { MastraCompositeStore } from "@mastra/core/storage";
import { getDb } from "../db/client.ts";
import { databaseProvider, sqliteFilePath } from "../db/database-url.ts";
import { PrismaWorkflowsStorage } from "./prisma-workflows-storage.ts";

export { PrismaWorkflowsStorage } from "./prisma-workflows-storage.ts";

export const MASTRA_PG_SCHEMA = "mastra";

export async function createMastraStorage(databaseUrl: string): Promise<MastraCompositeStore> {
  const workflows = new PrismaWorkflowsStorage({ db: await getDb(databaseUrl) });
  return new MastraCompositeStore({
    id: "approvals-console",
    name: "ApprovalsConsoleStore",
    default: await createMastraDefaultStore(databaseUrl),
    domains: { workflows },
  });
}

async function createMastraDefaultStore(databaseUrl: string): Promise<MastraCompositeStore> {
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
