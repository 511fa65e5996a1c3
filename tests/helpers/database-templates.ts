/**
 * Migrated templates for the test databases: migrating a database costs about 0.1 s on SQLite and
 * 0.5 s on PostgreSQL (the schema engine replays every migration), copying a migrated one a few
 * milliseconds. One template per database kind and migration history, shared by every test process
 * of every run: keyed by a hash of both migration folders (the console's and the store package's)
 * and of the code that applies them, so a changed migration gets a template of its own.
 *
 * SQLite: a migrated file in the temporary folder, copied. PostgreSQL: a database named after the
 * hash, used as `CREATE DATABASE … TEMPLATE`. Nobody connects to a template once it is built (a
 * connection would make PostgreSQL refuse it as a template); templates of older migration histories
 * are left in place, since another checkout may still be using them.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { deployMigrations, type DatabaseProvider } from "../../lib/db/migrate.ts";
import { PROJECT_ROOT, prismaPaths, storePrismaPaths } from "../../lib/db/prisma-paths.ts";

/** What decides the migrated schema: the migration folders, the triggers installed beside them, and the migrators. */
async function migrationHistoryHash(kind: DatabaseProvider): Promise<string> {
  const hash = createHash("sha256");
  const files = [
    ...(await filesUnder(prismaPaths(kind).migrations)),
    ...(await filesUnder(storePrismaPaths(kind).migrations)),
    ...(await filesUnder(path.join(PROJECT_ROOT, "prisma", kind, "derived"))),
    path.join(PROJECT_ROOT, "lib/db/migrate.ts"),
    path.join(PROJECT_ROOT, "lib/db/derived-tables.ts"),
    path.join(PROJECT_ROOT, "packages/mastra-store/src/migrate.ts"),
  ];
  for (const file of files)
    hash
      .update(`${path.relative(PROJECT_ROOT, file)}\0`)
      .update(await readFile(file))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

const templates = new Map<DatabaseProvider, Promise<string>>();

/** The template of `kind` for the current migrations, built on first use: a SQLite file's path or a PostgreSQL database's name. */
export function migratedTemplate(kind: DatabaseProvider, admin: PostgresAdmin): Promise<string> {
  let template = templates.get(kind);
  if (!template) {
    template = kind === "sqlite" ? sqliteTemplate() : postgresTemplate(admin);
    // A failed build is retried by the next caller rather than remembered.
    template.catch(() => templates.delete(kind));
    templates.set(kind, template);
  }
  return template;
}

async function sqliteTemplate(): Promise<string> {
  const dir = path.join(tmpdir(), "agent-approvals-test-templates");
  const file = path.join(dir, `sqlite-${await migrationHistoryHash("sqlite")}.db`);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const building = await mkdtemp(path.join(dir, "building-"));
  try {
    const built = path.join(building, "template.db");
    await deployMigrations(`file:${built}`);
    // Every connection is closed, so the file holds everything: a copy of it alone is the database.
    const wal = `${built}-wal`;
    if (existsSync(wal) && statSync(wal).size > 0) throw new Error(`The migrated template left a write-ahead log behind: ${wal}`);
    // Atomic: a concurrent builder's identical file may win, a half-written one is never seen.
    await rename(built, file);
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return file;
}

export interface PostgresAdmin {
  /** A URL of the server's database `name`. */
  urlOf(name: string): string;
  query(sql: string): Promise<Array<Record<string, unknown>>>;
}

async function postgresTemplate(admin: PostgresAdmin): Promise<string> {
  const name = `test_template_${await migrationHistoryHash("postgres")}`;
  if ((await admin.query(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).length) return name;
  // Built under a name of its own and renamed when complete: a concurrent process never copies a
  // half-migrated template, and of two concurrent builders one keeps its copy.
  const building = `test_tplbuild_${randomUUID().replaceAll("-", "")}`;
  await admin.query(`CREATE DATABASE "${building}"`);
  try {
    await deployMigrations(admin.urlOf(building));
    await renameWhenIdle(admin, building, name);
  } catch (error) {
    if ((await admin.query(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).length === 0) throw error;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  }
  return name;
}

/** ALTER DATABASE … RENAME, once the migrators' sessions have ended on the server too. */
async function renameWhenIdle(admin: PostgresAdmin, from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`ALTER DATABASE "${from}" RENAME TO "${to}"`);
      return;
    } catch (error) {
      // 55006: "database is being accessed by other users" (a closed pool's backend still exiting).
      if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
