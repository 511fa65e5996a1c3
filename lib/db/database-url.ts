// How a DATABASE_URL maps onto this project's two database flavours. Shared by the migration code,
// prisma.config.ts and anything else that opens the database, so they all agree on which file or
// server a URL means.
import { databaseProvider, sqliteFilePath as storeSqliteFilePath } from "@agent-approvals/mastra-store";
import { PROJECT_ROOT } from "./prisma-paths.ts";

export { databaseProvider, redactUrl, type DatabaseProvider } from "@agent-approvals/mastra-store";
export { PROJECT_ROOT, STORE_PACKAGE_ROOT, prismaPaths } from "./prisma-paths.ts";

export const DEFAULT_DATABASE_URL = "file:./data/console.db";

/**
 * The absolute path of the SQLite file a `file:` URL names. Relative paths resolve against the
 * project root, not the working directory, so scripts, tests and the app find the same file
 * wherever they are started from. `file::memory:` stays `:memory:`. Query parameters are ignored.
 */
export function sqliteFilePath(databaseUrl: string): string {
  return storeSqliteFilePath(databaseUrl, PROJECT_ROOT);
}

/** `databaseUrl` with a relative SQLite path made absolute, for code that resolves it elsewhere (the store package). */
export function absoluteDatabaseUrl(databaseUrl: string): string {
  return databaseProvider(databaseUrl) === "sqlite" ? `file:${sqliteFilePath(databaseUrl)}` : databaseUrl;
}
