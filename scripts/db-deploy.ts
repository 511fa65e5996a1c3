// Applies pending migrations to DATABASE_URL (default: the SQLite file under data/).
import { DEFAULT_DATABASE_URL, redactUrl } from "../lib/db/database-url.ts";
import { deployMigrations } from "../lib/db/migrate.ts";

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;

try {
  const { applied } = await deployMigrations(databaseUrl);
  if (applied.length === 0) console.log(`${redactUrl(databaseUrl)}: no pending migrations.`);
  else console.log(`${redactUrl(databaseUrl)}: applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join("\n")}`);
  process.exit(0);
} catch (error) {
  console.error(`Migrating ${redactUrl(databaseUrl)} failed:`, error instanceof Error ? error.message : error);
  // An open pg pool would otherwise keep the process alive.
  process.exit(1);
}
