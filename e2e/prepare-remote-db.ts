/**
 * A fresh database for the remote-mode spec (e2e/27-remote-mode.spec.ts), shared by the example
 * Mastra server and the remote-mode console: migrations and the demo accounts, no backlog (the
 * spec makes its own runs). Run by Playwright's webServer before it starts the Mastra server.
 */
import fs from "node:fs";
import path from "node:path";
import { disconnectDb } from "../lib/db/client.ts";
import { databaseProvider, sqliteFilePath } from "../lib/db/database-url.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { ensureDemoAccounts } from "../lib/mastra/demo/accounts.ts";
import { E2E_REMOTE_DATABASE_URL } from "./support/env.ts";

const databaseUrl = E2E_REMOTE_DATABASE_URL;
try {
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
  await disconnectDb(databaseUrl);
  process.exit(0);
} catch (error) {
  console.error("Preparing the remote-mode e2e database failed:", error);
  process.exit(1);
}
