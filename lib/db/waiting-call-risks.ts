/**
 * The triggers that keep waiting_call_risks (the console's migration of that name) exact. They span
 * the store's workflow_snapshots and the console's call_rule_matches, so they are no Prisma migration
 * of either: a store migration that rebuilds workflow_snapshots on SQLite (new table, copy, drop,
 * rename, as SQLite alters a table) drops the triggers on it, and SQLite refuses the rename while a
 * trigger elsewhere names the missing table. So deployMigrations takes them off on SQLite before the
 * store's migrations run and installs them after the console's, refilling the table from what waits
 * then, in one transaction. The SQL is prisma/<provider>/derived/waiting_call_risks.sql; it also
 * keeps (and refills) waiting_thread_risks, the same rows summed per thread and risk, and
 * waiting_risk_totals, those summed per risk.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider, PROJECT_ROOT, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";

/** The installed triggers; a changed trigger gets a new name, so that every database installs it again. */
const TRIGGERS: Record<DatabaseProvider, string[]> = {
  sqlite: [
    "call_rule_matches_waiting_risk_insert",
    "call_rule_matches_waiting_risk_update",
    "call_rule_matches_waiting_risk_delete",
    "workflow_snapshots_waiting_risks_insert",
    "workflow_snapshots_waiting_risks_update",
    "workflow_snapshots_waiting_risks_delete",
    "waiting_call_risks_thread_insert",
    "waiting_call_risks_thread_delete",
    "waiting_thread_risks_totals_insert",
    "waiting_thread_risks_totals_update",
    "waiting_thread_risks_totals_delete",
  ],
  postgres: [
    "call_rule_matches_add_waiting_risks",
    "call_rule_matches_remove_waiting_risks",
    "call_rule_matches_move_waiting_risks",
    "workflow_snapshots_keep_waiting_risks",
    "waiting_call_risks_thread_risks_added",
    "waiting_call_risks_thread_risks_removed",
    "waiting_thread_risks_totals_added",
    "waiting_thread_risks_totals_changed",
    "waiting_thread_risks_totals_removed",
  ],
};

const installScript = (provider: DatabaseProvider) =>
  readFile(path.join(PROJECT_ROOT, "prisma", provider, "derived", "waiting_call_risks.sql"), "utf8");

async function withSqlite<T>(databaseUrl: string, run: (db: Database.Database) => T): Promise<T> {
  const db = new Database(sqliteFilePath(databaseUrl));
  db.pragma("busy_timeout = 30000");
  try {
    return run(db);
  } finally {
    db.close();
  }
}

async function withPostgres<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Installs the triggers when any is missing, and refills the table, in one transaction; returns
 * whether it did. A database with all of them is left alone (one catalogue read).
 */
export async function installWaitingCallRiskTriggers(databaseUrl: string): Promise<boolean> {
  const provider = databaseProvider(databaseUrl);
  const names = TRIGGERS[provider];
  if (provider === "sqlite") {
    const script = await installScript(provider);
    return withSqlite(databaseUrl, (db) => {
      const present = db
        .prepare(`SELECT COUNT(*) AS "found" FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => "?").join(", ")})`)
        .get(...names) as { found: number };
      if (present.found === names.length) return false;
      db.exec("BEGIN IMMEDIATE");
      try {
        db.exec(script);
        db.exec("COMMIT");
      } catch (error) {
        db.exec("ROLLBACK");
        throw error;
      }
      return true;
    });
  }
  return withPostgres(databaseUrl, async (client) => {
    const present = await client.query<{ found: string }>(
      `SELECT COUNT(*) AS "found" FROM pg_trigger WHERE NOT tgisinternal AND tgname = ANY($1)`,
      [names],
    );
    if (Number(present.rows[0]?.found) === names.length) return false;
    await installOnPostgres(client);
    return true;
  });
}

async function installOnPostgres(client: pg.Client): Promise<void> {
  const script = await installScript("postgres");
  await client.query("BEGIN");
  try {
    // Two instances deploying at once: the second waits here and installs the same again.
    await client.query(`LOCK TABLE "waiting_call_risks" IN EXCLUSIVE MODE`);
    await client.query(script);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/**
 * Installs the PostgreSQL triggers again and refills the tables from what waits now, whatever is
 * installed: for rows written with the triggers off (the benchmark's backlog generated in SQL).
 */
export async function refillWaitingCallRisks(databaseUrl: string): Promise<void> {
  if (databaseProvider(databaseUrl) !== "postgres") throw new Error("refillWaitingCallRisks is for PostgreSQL");
  await withPostgres(databaseUrl, installOnPostgres);
}

/** Takes the SQLite triggers off (before the store's migrations may rebuild workflow_snapshots). */
export async function removeWaitingCallRiskTriggers(databaseUrl: string): Promise<void> {
  if (databaseProvider(databaseUrl) !== "sqlite" || !existsSync(sqliteFilePath(databaseUrl))) return;
  await withSqlite(databaseUrl, (db) => {
    for (const name of TRIGGERS.sqlite) db.exec(`DROP TRIGGER IF EXISTS "${name}"`);
  });
}
