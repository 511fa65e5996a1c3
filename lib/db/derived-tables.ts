/**
 * Tables the console derives from the store's, kept exact by triggers: waiting_call_risks (and its
 * sums per thread and per risk) spans the store's workflow_snapshots and the console's
 * call_rule_matches; suspended_thread_totals counts the store's suspended_threads per agent; the
 * live queue's feed (queue_changes) records calls waiting and runs leaving in the store. Their
 * triggers sit on store tables, so they are no Prisma migration of either: a store migration that
 * rebuilds a table on SQLite (new table, copy, drop, rename, as SQLite alters a table) drops the
 * triggers on it, and SQLite refuses the rename while a trigger elsewhere names the missing table.
 * So deployMigrations takes them off on SQLite before the store's migrations run and installs them
 * after the console's, refilling the tables from the store's rows then, a script at a time, each in
 * one transaction. The SQL is prisma/<provider>/derived/<script>.sql.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider, PROJECT_ROOT, sqliteFilePath, type DatabaseProvider } from "./database-url.ts";

interface DerivedScript {
  /** prisma/<provider>/derived/<script>.sql */
  script: string;
  /** Locked against writes while the script runs on PostgreSQL: what its triggers follow. */
  lockTable: string;
  /** The installed triggers; a changed trigger gets a new name, so that every database installs it again. */
  triggers: Record<DatabaseProvider, string[]>;
}

const DERIVED: DerivedScript[] = [
  {
    script: "waiting_call_risks",
    lockTable: "waiting_call_risks",
    triggers: {
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
    },
  },
  {
    script: "suspended_thread_totals",
    lockTable: "suspended_threads",
    triggers: {
      sqlite: ["suspended_threads_totals_insert", "suspended_threads_totals_update", "suspended_threads_totals_delete"],
      postgres: ["suspended_threads_totals_added", "suspended_threads_totals_changed", "suspended_threads_totals_removed"],
    },
  },
  {
    // The live queue's change feed: no table to refill, only the triggers that follow the store's tables.
    script: "queue_changes",
    lockTable: "queue_changes",
    triggers: {
      sqlite: [
        "queue_changes_waiting",
        "queue_changes_left",
        "queue_changes_left_deleted",
        "queue_changes_call_assignments_insert",
        "queue_changes_call_assignments_update",
        "queue_changes_call_assignments_delete",
        "queue_changes_call_approvals_insert",
        "queue_changes_call_approvals_delete",
        "queue_changes_call_rule_matches_insert",
        "queue_changes_call_rule_matches_update",
      ],
      postgres: [
        "queue_changes_waiting",
        "queue_changes_left",
        "queue_changes_call_assignments",
        "queue_changes_call_approvals",
        "queue_changes_call_rule_matches",
        "queue_changes_call_rule_matches_rerated",
      ],
    },
  },
];

const scriptText = (provider: DatabaseProvider, script: string) =>
  readFile(path.join(PROJECT_ROOT, "prisma", provider, "derived", `${script}.sql`), "utf8");

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
 * Runs every script whose triggers are not all installed (installing them and refilling its tables),
 * each in its own transaction, over one connection; returns whether any ran. A database with all of
 * them is left alone (one catalogue read per script).
 */
export async function installDerivedTriggers(databaseUrl: string): Promise<boolean> {
  const provider = databaseProvider(databaseUrl);
  if (provider === "sqlite") {
    const scripts = await Promise.all(DERIVED.map(async (derived) => ({ derived, text: await scriptText(provider, derived.script) })));
    return withSqlite(databaseUrl, (db) => {
      let installed = false;
      for (const { derived, text } of scripts) {
        const names = derived.triggers.sqlite;
        const present = db
          .prepare(`SELECT COUNT(*) AS "found" FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => "?").join(", ")})`)
          .get(...names) as { found: number };
        if (present.found === names.length) continue;
        db.exec("BEGIN IMMEDIATE");
        try {
          db.exec(text);
          db.exec("COMMIT");
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
        installed = true;
      }
      return installed;
    });
  }
  return withPostgres(databaseUrl, async (client) => {
    let installed = false;
    for (const derived of DERIVED) {
      const names = derived.triggers.postgres;
      const present = await client.query<{ found: string }>(
        `SELECT COUNT(*) AS "found" FROM pg_trigger WHERE NOT tgisinternal AND tgname = ANY($1)`,
        [names],
      );
      if (Number(present.rows[0]?.found) === names.length) continue;
      await runOnPostgres(client, derived);
      installed = true;
    }
    return installed;
  });
}

/**
 * One script in one transaction, its followed table locked against writes first: a write between
 * the refill and the triggers would be missed. Two instances deploying at once: the second waits
 * here and runs the same again. One script at a time, so an install never holds one table's lock
 * while waiting for another's (a snapshot write takes them in the other order).
 */
async function runOnPostgres(client: pg.Client, derived: DerivedScript): Promise<void> {
  const script = await scriptText("postgres", derived.script);
  await client.query("BEGIN");
  try {
    await client.query(`LOCK TABLE "${derived.lockTable}" IN EXCLUSIVE MODE`);
    await client.query(script);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/**
 * Installs the PostgreSQL triggers again and refills the tables from the store's rows now, whatever
 * is installed: for rows written with the triggers off (the benchmark's backlog generated in SQL).
 */
export async function refillDerivedTables(databaseUrl: string): Promise<void> {
  if (databaseProvider(databaseUrl) !== "postgres") throw new Error("refillDerivedTables is for PostgreSQL");
  await withPostgres(databaseUrl, async (client) => {
    for (const derived of DERIVED) await runOnPostgres(client, derived);
  });
}

/** Takes the SQLite triggers off (before the store's migrations may rebuild the tables they are on). */
export async function removeDerivedTriggers(databaseUrl: string): Promise<void> {
  if (databaseProvider(databaseUrl) !== "sqlite" || !existsSync(sqliteFilePath(databaseUrl))) return;
  await withSqlite(databaseUrl, (db) => {
    for (const derived of DERIVED) for (const name of derived.triggers.sqlite) db.exec(`DROP TRIGGER IF EXISTS "${name}"`);
  });
}
