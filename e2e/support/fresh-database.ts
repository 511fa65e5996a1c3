/**
 * A fresh database for an e2e console: the old SQLite files deleted (the snapshot store, Mastra's
 * sibling store console.db → console.mastra.db, and their WAL/SHM/journal files), the migrations
 * applied and the demo accounts (one per role) created. Used by the webServers' prepare scripts.
 */
import fs from "node:fs";
import path from "node:path";
import { databaseProvider, sqliteFilePath } from "../../lib/db/database-url.ts";
import { deployMigrations } from "../../lib/db/migrate.ts";
import { ensureDemoAccounts } from "../../lib/mastra/demo/accounts.ts";

export async function freshDatabaseWithAccounts(databaseUrl: string): Promise<void> {
  if (databaseProvider(databaseUrl) === "sqlite") {
    const file = sqliteFilePath(databaseUrl);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const base = file.replace(/\.db$/, "");
    for (const candidate of [file, `${base}.mastra.db`]) {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(`${candidate}${suffix}`, { force: true });
    }
  }
  await deployMigrations(databaseUrl);
  await ensureDemoAccounts(databaseUrl);
}
