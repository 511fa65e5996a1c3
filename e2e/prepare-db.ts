/**
 * `npm run e2e:prepare`: a fresh database for the end-to-end suite. Deletes the old SQLite files
 * (the snapshot store and Mastra's sibling store), applies the migrations and seeds the demo backlog
 * and the demo accounts (one per role) through the product's own code. Also, at the same time, the
 * remote-mode spec's database (e2e/27-remote-mode.spec.ts), shared by the example Mastra server and
 * the remote-mode console: migrations and the demo accounts, no backlog (the spec makes its own
 * runs); not with E2E_REMOTE=0. Run by Playwright's webServer before it starts the servers.
 */
import { disconnectDb } from "../lib/db/client.ts";
import { redactUrl } from "../lib/db/database-url.ts";
import { seedDemoRuns } from "../lib/mastra/demo/seed.ts";
import { freshDatabaseWithAccounts } from "./support/fresh-database.ts";
import { E2E_DATABASE_URL, E2E_REMOTE, E2E_REMOTE_DATABASE_URL } from "./support/env.ts";

// Never DATABASE_URL: this script deletes the file, and DATABASE_URL may name the real console's.
const databaseUrl = E2E_DATABASE_URL;
const started = performance.now();

async function prepareConsoleDatabase() {
  await freshDatabaseWithAccounts(databaseUrl);
  await seedDemoRuns(databaseUrl, { reset: true });
  await disconnectDb(databaseUrl);
}

async function prepareRemoteDatabase() {
  await freshDatabaseWithAccounts(E2E_REMOTE_DATABASE_URL);
  await disconnectDb(E2E_REMOTE_DATABASE_URL);
}

try {
  await Promise.all([prepareConsoleDatabase(), E2E_REMOTE && prepareRemoteDatabase()]);
  const prepared = E2E_REMOTE ? `${redactUrl(databaseUrl)} and ${redactUrl(E2E_REMOTE_DATABASE_URL)}` : redactUrl(databaseUrl);
  console.log(`e2e database ${prepared} ready in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  process.exit(0);
} catch (error) {
  console.error("Preparing the e2e database failed:", error);
  process.exit(1);
}
