// Applies and creates Prisma migrations through Prisma's own schema engine compiled to WebAssembly,
// so no native engine download is needed. Everything it reads and writes is in Prisma's normal
// format (migration folders, migration_lock.toml, the `_prisma_migrations` table), so
// `prisma migrate deploy|dev` keep working unchanged where the native engine is available.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { migrateStore, pendingStoreMigrations } from "@agent-approvals/mastra-store/migrate";
import type { ErrorRegistry } from "@prisma/driver-adapter-utils";
import { createMigrationAdapter } from "./migration-adapters.ts";
import { absoluteDatabaseUrl, databaseProvider, prismaPaths, type DatabaseProvider } from "./database-url.ts";
import { storePrismaPaths, storeTables } from "./prisma-paths.ts";
import { installDerivedTriggers, removeDerivedTriggers } from "./derived-tables.ts";
import { explainSchemaNotEmpty } from "./foreign-tables.ts";
import { startSchemaEngine, type MigrationList, type SchemaEngine, type SchemaFilter } from "./schema-engine.ts";

export type { DatabaseProvider } from "./database-url.ts";

/**
 * SQLite's planner statistics (what ANALYZE and `PRAGMA optimize` write, as the store's client does
 * when it opens a file) are no tables of ours either: without them here, a file the store had
 * already served, migrated for the store only, was "not empty" to the console's first migration.
 */
const SQLITE_STATISTICS_TABLES = ["sqlite_stat1", "sqlite_stat4"];
const consoleTablesOnly = (provider: DatabaseProvider): SchemaFilter => ({
  externalTables: provider === "sqlite" ? [...storeTables(provider), ...SQLITE_STATISTICS_TABLES] : storeTables(provider),
  externalEnums: [],
});
const LOCKFILE = "migration_lock.toml";
const MIGRATION_FILE = "migration.sql";

/**
 * Brings `databaseUrl` up to date: first the store package's migrations (its tables, in its own
 * history), then those of `prisma/<provider>/migrations` that it lacks, in name order, recorded in
 * `_prisma_migrations` exactly like `prisma migrate deploy`. Creates the SQLite file (and its folder)
 * if missing, and installs the triggers that span both (lib/db/derived-tables.ts) where any is
 * missing. A no-op when the database is up to date. Concurrent callers are serialised by each
 * migrator's lock (an exclusive lock on SQLite, an advisory lock on PostgreSQL).
 */
export async function deployMigrations(databaseUrl: string): Promise<{ applied: string[] }> {
  const provider = databaseProvider(databaseUrl);
  const url = absoluteDatabaseUrl(databaseUrl);
  // The triggers that span the store's tables and ours come off while the store's migrations run
  // (lib/db/derived-tables.ts) and go back on after ours.
  if (provider === "sqlite" && (await pendingStoreMigrations(url)).length > 0) await removeDerivedTriggers(url);
  const store = await migrateStore(url);
  const filters = consoleTablesOnly(provider);
  const applied = await withEngine(databaseUrl, provider, async (engine) => {
    const migrationsList = await readMigrations(provider);
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters });
    return [...store.applied.map((name) => `store/${name}`), ...appliedMigrationNames];
  }).catch(async (error: unknown) => {
    throw await explainSchemaNotEmpty(error, url, filters.externalTables);
  });
  await installDerivedTriggers(url);
  return { applied };
}

export interface CreatedMigration {
  /** The migration folder name (`<timestamp>_<name>`), or null when the schema had no changes. */
  name: string | null;
  /** The migration folder, or null when nothing was written. */
  directory: string | null;
}

/**
 * Development only, the `prisma migrate dev --name <name>` flow: brings `databaseUrl` up to date,
 * generates the SQL from it to `prisma/<provider>/schema.prisma`, writes it as a new migration
 * folder and applies it. Use a throwaway database: it is migrated, and one that drifted from the
 * migration history is refused. Needs a shadow database (in memory for SQLite; on PostgreSQL one is
 * created next to `databaseUrl`, so the role needs CREATEDB).
 */
export async function createMigration(provider: DatabaseProvider, name: string, databaseUrl: string): Promise<CreatedMigration> {
  if (databaseProvider(databaseUrl) !== provider) {
    throw new Error(`createMigration(${provider}): the database URL is for ${databaseProvider(databaseUrl)}`);
  }
  const schema = await readSchema(provider);
  await migrateStore(absoluteDatabaseUrl(databaseUrl));
  return withEngine(databaseUrl, provider, async (engine) => {
    // The order `prisma migrate dev` uses: apply, diagnose, create, apply.
    const before = await readMigrations(provider);
    await engine.applyMigrations({ migrationsList: before, filters: consoleTablesOnly(provider) });
    const { action } = await engine.devDiagnostic({ migrationsList: before, filters: consoleTablesOnly(provider) });
    if (action.tag === "reset") {
      throw new Error(
        `The ${provider} database used to create the migration does not match the migration history ` +
          `(${action.reason}). Use an empty database.`,
      );
    }
    const created = await engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList: before,
      schema: { files: schema },
      filters: consoleTablesOnly(provider),
    });
    if (created.migrationScript === null) return { name: null, directory: null };

    const directory = path.join(before.baseDir, created.generatedMigrationName);
    await mkdir(directory, { recursive: true });
    await writeFile(path.join(directory, `migration.${created.extension}`), created.migrationScript, "utf8");
    // Same content as Prisma's; it records the provider so a migration folder can't be applied to
    // the wrong kind of database.
    await writeFile(
      path.join(before.baseDir, LOCKFILE),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${created.connectorType}"\n`,
      "utf8",
    );
    await engine.applyMigrations({ migrationsList: await readMigrations(provider), filters: consoleTablesOnly(provider) });
    return { name: created.generatedMigrationName, directory };
  });
}

/** A schema and the migrations that build it: the console's (prisma/<provider>) or the store package's. */
export type SchemaOwner = "console" | "store";

/**
 * The SQL that would bring a database built from the owner's migrations to its current schema, or
 * null when the migrations capture the schema. Replays the migrations on a shadow database reached
 * through `databaseUrl` (SQLite: in memory, whatever the file; PostgreSQL: a temporary database
 * created next to `databaseUrl`, which itself is not changed).
 */
export async function pendingSchemaChanges(
  provider: DatabaseProvider,
  databaseUrl: string,
  owner: SchemaOwner = "console",
): Promise<string | null> {
  const paths = owner === "console" ? prismaPaths(provider) : storePrismaPaths(provider);
  const filters = owner === "console" ? consoleTablesOnly(provider) : { externalTables: [], externalEnums: [] };
  const schema = await readSchemaFiles(paths.schemaFiles);
  const migrations = owner === "console" ? await readMigrations(provider) : await readMigrationsFolder(paths.migrations);
  return withEngine(databaseUrl, provider, async (engine) => {
    const { exitCode, stdout } = await engine.diff({
      from: { tag: "migrations", ...migrations },
      to: { tag: "schemaDatamodel", files: schema },
      script: true,
      exitCode: true,
      filters,
    });
    // With exitCode set the engine reports 2 for a non-empty diff.
    return exitCode === 0 ? null : (stdout ?? "");
  });
}

async function withEngine<T>(databaseUrl: string, provider: DatabaseProvider, run: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const adapter = createMigrationAdapter(databaseUrl);
  const engine = await startSchemaEngine(adapter.factory, await readSchema(provider), engineLogger());
  try {
    return await run(engine).catch((error: unknown) => {
      throw withDriverError(asError(error), adapter.factory.errorRegistry);
    });
  } finally {
    engine.free();
    await adapter.close();
  }
}

async function readSchema(provider: DatabaseProvider): Promise<Array<{ path: string; content: string }>> {
  return readSchemaFiles(prismaPaths(provider).schemaFiles);
}

async function readSchemaFiles(files: string[]): Promise<Array<{ path: string; content: string }>> {
  return Promise.all(files.map(async (file) => ({ path: file, content: await readFile(file, "utf8") })));
}

/** Every migration of the store package, in order, as one script. */
async function storeMigrationsScript(provider: DatabaseProvider): Promise<string> {
  const { migrationDirectories, baseDir } = await readMigrationsFolder(storePrismaPaths(provider).migrations);
  const scripts = await Promise.all(
    migrationDirectories.map((directory) => readFile(path.join(baseDir, directory.path, MIGRATION_FILE), "utf8")),
  );
  return scripts.join("\n;\n");
}

/**
 * The console's migrations. They may refer to the store's tables (triggers that keep a console table
 * in step with workflow_snapshots), so a shadow database they are replayed on gets the store's
 * tables first, as every real database does (deployMigrations migrates the store first).
 */
async function readMigrations(provider: DatabaseProvider): Promise<MigrationList> {
  return { ...(await readMigrationsFolder(prismaPaths(provider).migrations)), shadowDbInitScript: await storeMigrationsScript(provider) };
}

/** A migrations folder as the engine expects it: what Prisma's CLI builds from disk. */
async function readMigrationsFolder(baseDir: string): Promise<MigrationList> {
  const lockContent = await readFile(path.join(baseDir, LOCKFILE), "utf8").catch(() => null);
  const entries = await readdir(baseDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const directories = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
  const migrationDirectories = await Promise.all(
    directories.map(async (name) => ({
      path: name,
      migrationFile: {
        path: MIGRATION_FILE,
        // The engine reports an unreadable migration itself, naming the folder.
        content: await readFile(path.join(baseDir, name, MIGRATION_FILE), "utf8").then(
          (value) => ({ tag: "ok" as const, value }),
          (error: Error) => ({ tag: "error" as const, value: error.message }),
        ),
      },
    })),
  );
  return {
    baseDir,
    lockfile: { path: LOCKFILE, content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

// The engine's log lines are JSON; set PRISMA_SCHEMA_ENGINE_LOG=1 to see them when debugging.
function engineLogger(): ((line: string) => void) | undefined {
  if (!process.env.PRISMA_SCHEMA_ENGINE_LOG) return undefined;
  return (line) => process.stderr.write(`[schema-engine] ${line.trimEnd()}\n`);
}

// A driver error reaches the engine as "External error id#N", its details kept JS-side in the
// adapter's registry; put them in the message, or the real cause (e.g. SQLITE_BUSY) is lost.
function withDriverError(error: Error, registry: ErrorRegistry): Error {
  const id = /External error id#(\d+)/.exec(error.message)?.[1];
  const record = id === undefined ? undefined : registry.consumeError(Number(id));
  if (!record) return error;
  const cause: unknown = record.error;
  const detail = cause instanceof Error ? cause.message : JSON.stringify(cause);
  error.message = error.message.replace(`External error id#${id}`, `Database driver error: ${detail}`);
  error.cause = cause;
  return error;
}

// The engine rejects with plain objects or strings in some paths; callers deserve an Error.
function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return Object.assign(new Error(error.message), error);
  }
  return new Error(typeof error === "string" ? error : JSON.stringify(error));
}
