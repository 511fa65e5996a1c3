#!/usr/bin/env node
/**
 * `mastra-store migrate [--database-url <url>]`: applies the store's migrations to a database (the
 * URL, else DATABASE_URL). Safe to run on every deploy and from several machines at once.
 */
import { parseArgs } from "node:util";
import { redactUrl } from "./database-url.ts";
import { migrateStore } from "./migrate.ts";

const USAGE = `Usage: mastra-store migrate [--database-url <url>]

  Creates or updates the approvals snapshot store's tables in the database.
  <url> is file:<path> (SQLite) or postgres://… (PostgreSQL); defaults to $DATABASE_URL.`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { "database-url": { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals[0] !== "migrate" || positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const databaseUrl = values["database-url"] ?? process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("No database: pass --database-url <url> or set DATABASE_URL.\n\n" + USAGE);
    return 2;
  }
  const { applied, baselined } = await migrateStore(databaseUrl);
  const target = redactUrl(databaseUrl);
  if (baselined.length) console.log(`${target}: found the store's tables already there; recorded ${baselined.join(", ")} as applied.`);
  console.log(applied.length ? `${target}: applied ${applied.join(", ")}.` : `${target}: the store is up to date.`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("mastra-store migrate failed:", error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
