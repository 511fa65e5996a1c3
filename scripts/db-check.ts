// `npm run db:check`: for the console's schemas (prisma/<provider>) and the store package's
// (packages/mastra-store/prisma/<provider>, whose models both share), fails when
//  1. the SQLite and PostgreSQL schema.prisma differ in anything but the datasource `provider` line
//     and the generator `output` line, or
//  2. either schema has changes its migrations folder does not capture (console: run
//     `npm run db:migrate`; store: add a migration to packages/mastra-store/migrations by hand).
// The second check replays the migrations on a shadow database: in memory for SQLite, a temporary
// database on POSTGRES_URL's server (default: the local one) for PostgreSQL.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT, prismaPaths, redactUrl, type DatabaseProvider } from "../lib/db/database-url.ts";
import { pendingSchemaChanges, type SchemaOwner } from "../lib/db/migrate.ts";
import { storePrismaPaths } from "../lib/db/prisma-paths.ts";

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

const pathsOf = (owner: SchemaOwner, provider: DatabaseProvider) => (owner === "console" ? prismaPaths : storePrismaPaths)(provider);
/** The owner's own schema file (its generator, datasource and, for the console, its models). */
const mainSchema = (owner: SchemaOwner, provider: DatabaseProvider) => pathsOf(owner, provider).schemaFiles[0]!;

/** Where the two schemas first differ (beyond the allowed lines), or null if they don't. */
async function firstSchemaDifference(owner: SchemaOwner): Promise<string | null> {
  const [sqlite = [], postgres = []] = await Promise.all(
    providers.map(async (provider) => normalisedLines(await readFile(mainSchema(owner, provider), "utf8"))),
  );
  for (let i = 0; i < Math.max(sqlite.length, postgres.length); i++) {
    if (sqlite[i] === postgres[i]) continue;
    return `line ${i + 1}:\n    sqlite:   ${sqlite[i] ?? "<end of file>"}\n    postgres: ${postgres[i] ?? "<end of file>"}`;
  }
  return null;
}

const relative = (file: string) => path.relative(PROJECT_ROOT, file);
let failed = false;

for (const owner of ["console", "store"] satisfies SchemaOwner[]) {
  const difference = await firstSchemaDifference(owner);
  if (difference !== null) {
    failed = true;
    console.error(
      `✗ ${relative(mainSchema(owner, "sqlite"))} and ${relative(mainSchema(owner, "postgres"))} must differ only in ` +
        `the datasource provider and generator output lines; first difference at ${difference}`,
    );
  } else {
    console.log(`✓ the ${owner}'s SQLite and PostgreSQL schemas match`);
  }

  for (const provider of providers) {
    // SQLite's shadow database is in memory, so the file named here is never opened for writing.
    const databaseUrl = provider === "sqlite" ? "file::memory:" : adminUrl;
    const { migrations } = pathsOf(owner, provider);
    try {
      const changes = await pendingSchemaChanges(provider, databaseUrl, owner);
      if (changes === null) {
        console.log(`✓ ${relative(migrations)} captures the ${owner}'s ${provider} schema`);
      } else {
        failed = true;
        console.error(
          `✗ the ${owner}'s ${provider} schema has changes not captured in ${relative(migrations)}; ` +
            `${owner === "console" ? "run `npm run db:migrate -- <name>`" : "add a migration"}. Missing SQL:\n${changes.trim().replace(/^/gm, "    ")}`,
        );
      }
    } catch (error) {
      failed = true;
      const where = provider === "postgres" ? ` (PostgreSQL server ${redactUrl(adminUrl)}; set POSTGRES_URL)` : "";
      console.error(`✗ could not check the ${owner}'s ${provider} migrations${where}: ${error instanceof Error ? error.message : error}`);
    }
  }
}

// Explicit exit: an open pg pool would keep the process alive.
process.exit(failed ? 1 : 0);
