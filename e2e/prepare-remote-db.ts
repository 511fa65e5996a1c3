/**
 * A fresh database for the remote-mode spec (e2e/27-remote-mode.spec.ts), shared by the example
 * Mastra server and the remote-mode console: migrations and the demo accounts, no backlog (the
 * spec makes its own runs). Run by Playwright's webServer before it starts the Mastra server.
 */
import { disconnectDb } from "../lib/db/client.ts";
import { freshDatabaseWithAccounts } from "./support/fresh-database.ts";
import { E2E_REMOTE_DATABASE_URL } from "./support/env.ts";

try {
  await freshDatabaseWithAccounts(E2E_REMOTE_DATABASE_URL);
  await disconnectDb(E2E_REMOTE_DATABASE_URL);
  process.exit(0);
} catch (error) {
  console.error("Preparing the remote-mode e2e database failed:", error);
  process.exit(1);
}
