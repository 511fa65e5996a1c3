/**
 * What to do when the console's first migration finds tables it does not know. Prisma refuses to
 * start a migration history on a schema that holds any ("The database schema is not empty. Read more
 * about how to baseline an existing production database", P3005), naming neither the tables nor a
 * way out; the usual cause is Mastra's own store (PostgresStore without `schemaName`, or a LibSQLStore
 * on the console's file) sharing the console's database. This names the tables and the fix.
 */
import { databaseProvider, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";
import { storeTables } from "./prisma-paths.ts";

/** Prisma's code for "the database schema is not empty". */
const SCHEMA_NOT_EMPTY = "P3005";
/** Tables named in the message; the rest are counted. */
const LISTED = 8;

/**
 * The error to report for `error`, thrown by the console's migrations on `databaseUrl`: for Prisma's
 * "schema is not empty", one that names the tables (besides the store's, which are expected there)
 * and what to do; any other error as it is. `ignored` are tables the migrations were told to ignore.
 */
export async function explainSchemaNotEmpty(error: unknown, databaseUrl: string, ignored: string[]): Promise<unknown> {
  if ((error as { code?: unknown } | null)?.code !== SCHEMA_NOT_EMPTY) return error;
  const provider = databaseProvider(databaseUrl);
  const known = new Set([...storeTables(provider), ...ignored].map((table) => table.replace(/^public\./, "")));
  let foreign: string[];
  try {
    foreign = (await tablesOf(databaseUrl, provider)).filter((table) => !known.has(table));
  } catch {
    foreign = [];
  }
  const names =
    foreign.length === 0
      ? "tables that are not the console's"
      : `tables that are not the console's or the approvals store's: ${foreign.slice(0, LISTED).join(", ")}` +
        (foreign.length > LISTED ? ` and ${foreign.length - LISTED} more` : "");
  const mastras = foreign.some((table) => table.startsWith("mastra_"));
  const message =
    provider === "postgres"
      ? `The database's default schema holds ${names}. The console's migrations start only on ` +
        `a schema without tables of other apps (Prisma: "the database schema is not empty", P3005). ` +
        (mastras ? "Those are Mastra's own store's (PostgresStore without schemaName). " : "") +
        `Give Mastra's PostgresStore a schema of its own (\`schemaName: "mastra"\`, as packages/mastra-store/README.md shows) ` +
        `and move or drop its tables here, or give the console an empty database.`
      : `The SQLite file holds ${names}. The console's migrations start only on a file ` +
        `without tables of other apps (Prisma: "the database schema is not empty", P3005). ` +
        (mastras ? "Those are Mastra's own store's (a LibSQLStore on this file). " : "") +
        `Give Mastra's own store a file of its own (the console keeps its own in <name>.mastra.db), or give the console a new file.`;
  return Object.assign(new Error(message, { cause: error }), { code: SCHEMA_NOT_EMPTY });
}

async function tablesOf(databaseUrl: string, provider: DatabaseProvider): Promise<string[]> {
  if (provider === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(sqliteFilePath(databaseUrl), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all();
      return (rows as Array<{ name: string }>).map((row) => row.name);
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}
