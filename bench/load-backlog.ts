/**
 * The open-loop load's database (bench/open-loop.ts): a backlog of suspended runs built once per
 * size and template set and copied for each run, since the load's approvals change it. PostgreSQL:
 * generated in SQL (bench/sql-backlog.ts, as bench:million builds its) and kept as a template
 * database, cloned with CREATE DATABASE … TEMPLATE; SQLite: loaded by bench/stores.ts into
 * bench/out and copied.
 */
import { copyFileSync, existsSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { sqliteFilePath } from "../lib/db/database-url.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { compileTemplates, generateBacklog, loadTemplates, OUT_DIR } from "./backlog.ts";
import { generateBacklogInSql } from "./sql-backlog.ts";
import { loadOurBacklog, POSTGRES_ADMIN_URL } from "./stores.ts";

const adminUrlOf = (database: string) => Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${database}` }).toString();
async function admin(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** A database of its own holding the backlog, and how to drop it. */
export async function backlogDatabase(
  db: "postgres" | "sqlite",
  backlog: number,
  log: (line: string) => void,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const { templates, hash } = await loadTemplates(log);
  if (db === "postgres") {
    const cache = `load_backlog_${backlog}_${hash}`;
    const cached = (await admin(POSTGRES_ADMIN_URL, `SELECT 1 FROM pg_database WHERE datname = '${cache}'`)).length > 0;
    if (cached) {
      if ((await deployMigrations(adminUrlOf(cache))).applied.length) await admin(adminUrlOf(cache), "VACUUM ANALYZE");
    } else {
      const built = await createTestDatabase("postgres");
      log(`generating ${backlog.toLocaleString("en")} suspended runs in PostgreSQL (once; kept as ${cache})…`);
      await generateBacklogInSql(built.url, templates, backlog);
      // A console would have announced these long ago: a live system does not keep them (as bench:million).
      await admin(built.url, `DELETE FROM "waiting_tool_calls"`);
      await admin(built.url, "VACUUM ANALYZE");
      await disconnectDb(built.url);
      await admin(POSTGRES_ADMIN_URL, `ALTER DATABASE "${new URL(built.url).pathname.slice(1)}" RENAME TO "${cache}"`);
    }
    const name = `load_run_${randomUUID().replaceAll("-", "")}`;
    await admin(POSTGRES_ADMIN_URL, `CREATE DATABASE "${name}" TEMPLATE "${cache}"`);
    return {
      url: adminUrlOf(name),
      drop: async () => void (await admin(POSTGRES_ADMIN_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
    };
  }
  const cache = path.join(OUT_DIR, `load-backlog-sqlite-${backlog}-${hash}.db`);
  if (!existsSync(cache)) {
    const built = await createTestDatabase("sqlite");
    log(`loading ${backlog.toLocaleString("en")} suspended runs into SQLite (once; kept as ${path.relative(process.cwd(), cache)})…`);
    await loadOurBacklog(built.url, generateBacklog(compileTemplates(templates), backlog));
    await (await getDb(built.url)).$executeRawUnsafe("DELETE FROM waiting_tool_calls");
    await (await getDb(built.url)).$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    await disconnectDb(built.url);
    copyFileSync(sqliteFilePath(built.url), cache);
    await built.drop();
  }
  const file = path.join(os.tmpdir(), `load-${randomUUID().slice(0, 8)}.db`);
  copyFileSync(cache, file);
  await deployMigrations(`file:${file}`);
  return {
    url: `file:${file}`,
    drop: async () => {
      for (const suffix of ["", "-wal", "-shm"])
        for (const f of [file, file.replace(/\.db$/, ".mastra.db")]) rmSync(f + suffix, { force: true });
    },
  };
}
