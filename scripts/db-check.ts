// `npm run db:check`: fails when
//  1. prisma/sqlite/schema.prisma and prisma/postgres/schema.prisma differ in anything but the
//     datasource `provider` line and the generator `output` line, or
//  2. either schema has changes its migrations folder does not capture (run `npm run db:migrate`).
// The second check replays the migrations on a shadow database: in memory for SQLite, a temporary
// database on POSTGRES_URL's server (default: the local one) for PostgreSQL.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT, prismaPaths, redactUrl, type DatabaseProvider } from "../lib/db/database-url.ts";
import { pendingSchemaChanges } from "../lib/db/migrate.ts";

const adminUrl = process.env.POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const providers: DatabaseProvider[] = ["sqlite", "postgres"];

/** The schema's lines, with the two that may legitimately differ replaced by placeholders. */
function normalisedLines(source: string): string[] {
  let block: string | null = null;
  return source.split(/\r?\n/).map((line) => {
    const opening = /^\s*(datasource|generator)\s+\w+\s*\{/.exec(line);
    if (opening) block = opening[1] ?? null;
    else if (/^\s*\}/.test(line)) block = null;
    if (block === "datasource" && /^\s*provider\s*=/.test(line)) return "<datasource provider>";
    if (block === "generator" && /^\s*output\s*=/.test(line)) return "<generator output>";
    return line.trimEnd();
  });
}

/** Where the two schemas first differ (beyond the allowed lines), or null if they don't. */
async function firstSchemaDifference(): Promise<string | null> {
  const [sqlite = [], postgres = []] = await Promise.all(
    providers.map(async (provider) => normalisedLines(await readFile(prismaPaths(provider).schema, "utf8"))),
  );
  for (let i = 0; i < Math.max(sqlite.length, postgres.length); i++) {
    if (sqlite[i] === postgres[i]) continue;
    return `line ${i + 1}:\n    sqlite:   ${sqlite[i] ?? "<end of file>"}\n    postgres: ${postgres[i] ?? "<end of file>"}`;
  }
  return null;
}

const relative = (file: string) => path.relative(PROJECT_ROOT, file);
let failed = false;

const difference = await firstSchemaDifference();
if (difference !== null) {
  failed = true;
  console.error(
    `✗ ${relative(prismaPaths("sqlite").schema)} and ${relative(prismaPaths("postgres").schema)} must differ only in ` +
      `the datasource provider and generator output lines; first difference at ${difference}`,
  );
} else {
  console.log("✓ the SQLite and PostgreSQL schemas match");
}

for (const provider of providers) {
  // SQLite's shadow database is in memory, so the file named here is never opened for writing.
  const databaseUrl = provider === "sqlite" ? "file::memory:" : adminUrl;
  try {
    const changes = await pendingSchemaChanges(provider, databaseUrl);
    if (changes === null) {
      console.log(`✓ ${relative(prismaPaths(provider).migrations)} captures ${relative(prismaPaths(provider).schema)}`);
    } else {
      failed = true;
      console.error(
        `✗ ${relative(prismaPaths(provider).schema)} has changes not captured in its migrations; ` +
          `run \`npm run db:migrate -- <name>\`. Missing SQL:\n${changes.trim().replace(/^/gm, "    ")}`,
      );
    }
  } catch (error) {
    failed = true;
    const where = provider === "postgres" ? ` (PostgreSQL server ${redactUrl(adminUrl)}; set POSTGRES_URL)` : "";
    console.error(`✗ could not check the ${provider} migrations${where}: ${error instanceof Error ? error.message : error}`);
  }
}

// Explicit exit: an open pg pool would keep the process alive.
process.exit(failed ? 1 : 0);
