// Applies pending migrations to DATABASE_URL (default: the SQLite file under data/). What it prints
// names the database as it was opened: a relative SQLite path made absolute (which file a relative
// URL meant is the first thing to check), a password masked.
import { absoluteDatabaseUrl, DEFAULT_DATABASE_URL, redactUrl } from "../lib/db/database-url.ts";
import { deployMigrations } from "../lib/db/migrate.ts";

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
let target = redactUrl(databaseUrl);

try {
  target = redactUrl(absoluteDatabaseUrl(databaseUrl));
  const { applied } = await deployMigrations(databaseUrl);
  if (applied.length === 0) console.log(`${target}: no pending migrations.`);
  else console.log(`${target}: applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join("\n")}`);
  process.exit(0);
} catch (error) {
  console.error(`Migrating ${target} failed:`, error instanceof Error ? error.message : error);
  // An open pg pool would otherwise keep the process alive.
  process.exit(1);
}
