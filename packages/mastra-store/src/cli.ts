#!/usr/bin/env node
/**
 * `mastra-store migrate [--database-url <url>]`: applies the store's migrations to a database (the
 * URL, else APPROVALS_DATABASE_URL, the variable the README's config reads too). Safe to run on every
 * deploy and from several machines at once.
 *
 * It never falls back to DATABASE_URL: in an app that adopts the store, DATABASE_URL is usually the
 * app's own database, and migrating it by default created the store's tables in the wrong place
 * while the store itself opened another. Naming the database is one flag.
 */
import { parseArgs } from "node:util";
import { absoluteDatabaseUrl, DATABASE_URL_VARIABLE, redactUrl } from "./database-url.ts";
import { migrateStore } from "./migrate.ts";

const USAGE = `Usage: mastra-store migrate [--database-url <url>]

  Creates or updates the approvals snapshot store's tables in the database.
  <url> is file:<path> (SQLite; a relative path resolves against the working directory)
  or postgres://… (PostgreSQL); defaults to $${DATABASE_URL_VARIABLE}.`;

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
  const databaseUrl = values["database-url"] || process.env[DATABASE_URL_VARIABLE];
  if (!databaseUrl) {
    const hint = process.env.DATABASE_URL
      ? `\nDATABASE_URL is set, but it is not read: it is often your app's own database. If the store shares it, pass --database-url "$DATABASE_URL".`
      : "";
    console.error(`No database: pass --database-url <url> or set ${DATABASE_URL_VARIABLE}.${hint}\n\n${USAGE}`);
    return 2;
  }
  // Absolute in what it prints: which file a relative path meant is the first thing to check.
  const target = redactUrl(absoluteDatabaseUrl(databaseUrl));
  const { applied, baselined } = await migrateStore(databaseUrl);
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
