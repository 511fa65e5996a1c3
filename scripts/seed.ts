/** `npm run seed [-- --reset]`: fills DATABASE_URL (default: the embedded SQLite file) with demo runs. */
import { databaseUrlFromEnv, disconnectDb } from "../lib/db/client.ts";
import { redactUrl } from "../lib/db/database-url.ts";
import { seedDemoRuns } from "../lib/mastra/seed.ts";

const databaseUrl = databaseUrlFromEnv();
const started = performance.now();
try {
  console.log(`Seeding ${redactUrl(databaseUrl)} with demo agent runs…`);
  await seedDemoRuns(databaseUrl, { reset: process.argv.includes("--reset") });
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  await disconnectDb(databaseUrl);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
