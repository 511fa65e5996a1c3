/**
 * `npm run seed [-- --reset] [-- --demo-accounts]`: fills DATABASE_URL (default: the embedded SQLite
 * file) with demo runs; with --demo-accounts also one account per role, and prints how to sign in.
 */
import { databaseUrlFromEnv, disconnectDb } from "../lib/db/client.ts";
import { redactUrl } from "../lib/db/database-url.ts";
import { ensureDemoAccounts } from "../lib/mastra/demo/accounts.ts";
import { seedDemoRuns } from "../lib/mastra/demo/seed.ts";

const databaseUrl = databaseUrlFromEnv();
const started = performance.now();
try {
  console.log(`Seeding ${redactUrl(databaseUrl)} with demo agent runs…`);
  await seedDemoRuns(databaseUrl, { reset: process.argv.includes("--reset") });
  if (process.argv.includes("--demo-accounts")) {
    const accounts = await ensureDemoAccounts(databaseUrl);
    console.log("\nDemo accounts (demo only — never use these passwords elsewhere):");
    for (const account of accounts) console.log(`  ${account.role.padEnd(8)} ${account.email.padEnd(24)} ${account.password}`);
  }
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  await disconnectDb(databaseUrl);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
