/**
 * Builds (or reuses) one backlog in each store:
 *  - ours on SQLite and on PostgreSQL: the project's migrations (deployMigrations), then the rows
 *    inserted directly, their columns computed by packages/mastra-store/src/snapshot-reader.ts's readSnapshot exactly
 *    as PrismaWorkflowsStorage.persistWorkflowSnapshot computes them (same JSON, same dates);
 *  - Mastra's LibSQLStore and PostgresStore: their own `init()` creates their tables and indexes,
 *    then the rows go in with the very INSERT their persistWorkflowSnapshot runs (LibSQL:
 *    `jsonb(?)`; PostgreSQL: jsonb with the Z columns), batched in transactions — calling
 *    persistWorkflowSnapshot once per row would take hours at 100k.
 * A built store is cached (SQLite files under bench/out/, PostgreSQL databases named after the key)
 * with a marker file bench/out/<key>.done; the key is store + size + template hash.
 */
import { existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider, sqliteFilePath } from "../lib/db/database-url.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { readSnapshot } from "@agent-approvals/mastra-store";
import { OUT_DIR, backlogShape, compileTemplates, generateBacklog, type BacklogRow, type TemplateRun } from "./backlog.ts";

export type StoreKind = "ours-sqlite" | "ours-pg" | "mastra-libsql" | "mastra-pg";

export const POSTGRES_ADMIN_URL = process.env.POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres";

export interface BuiltStore {
  kind: StoreKind;
  size: number;
  /** DATABASE_URL-style: file:… or postgres://… */
  url: string;
  key: string;
  cached: boolean;
  loadSeconds?: number;
  bytes?: number;
}

function pgUrl(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One query on its own connection to `url`. */
export async function pgQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query<T>(sql, params);
  } finally {
    await client.end();
  }
}

const adminQuery = <T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  pgQuery<T>(POSTGRES_ADMIN_URL, sql, params);

async function pgDatabaseExists(name: string): Promise<boolean> {
  return (await adminQuery("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
}

export async function pgDatabaseBytes(url: string): Promise<number> {
  const { rows } = await pgQuery<{ size: string }>(url, "SELECT pg_database_size(current_database()) AS size");
  return Number(rows[0]!.size);
}

/** Prisma's better-sqlite3 adapter writes DateTime as ISO text with an explicit offset. */
/** A DateTime as Prisma stores it in SQLite (UTC text). */
export const sqliteDate = (date: Date) => date.toISOString().replace("Z", "+00:00");

export async function buildStore(
  kind: StoreKind,
  size: number,
  templates: TemplateRun[],
  hash: string,
  log: (line: string) => void,
): Promise<BuiltStore> {
  const key = `${kind}-${size}-${hash}`;
  const marker = path.join(OUT_DIR, `${key}.done`);
  const isPg = kind.endsWith("-pg");
  const dbName = `bench_${key.replaceAll("-", "_")}`;
  const file = path.join(OUT_DIR, `${key}.db`);
  const url = isPg ? pgUrl(dbName) : `file:${file}`;
  const present = existsSync(marker) && (isPg ? await pgDatabaseExists(dbName) : existsSync(file));
  if (present) {
    // Our schema may have gained a migration since the store was built: apply it (indexes, a new
    // summary filled from the runs), and give PostgreSQL's planner the statistics a live system has.
    if (kind.startsWith("ours") && (await deployMigrations(url)).applied.length > 0 && isPg) await pgQuery(url, "VACUUM ANALYZE");
    return { kind, size, url, key, cached: true, bytes: isPg ? await pgDatabaseBytes(url) : statSync(file).size };
  }

  const started = performance.now();
  const shape = backlogShape(size);
  log(`  building ${key}: ${(shape.suspended + shape.completed).toLocaleString("en")} runs…`);
  rmSync(marker, { force: true });
  if (isPg) {
    await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE "${dbName}"`);
  } else {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  }
  let rowCount = 0;
  const rows = (function* () {
    for (const run of generateBacklog(compileTemplates(templates), size)) {
      rowCount += run.length;
      yield run;
    }
  })();
  if (kind === "ours-sqlite") await loadOursSqlite(url, file, rows);
  else if (kind === "ours-pg") await loadOursPg(url, rows);
  else if (kind === "mastra-libsql") await loadMastraLibsql(file, rows);
  else await loadMastraPg(url, rows);
  const loadSeconds = (performance.now() - started) / 1000;
  writeFileSync(marker, JSON.stringify({ kind, size, hash, rows: rowCount, loadSeconds, at: new Date().toISOString() }));
  const bytes = isPg ? await pgDatabaseBytes(url) : statSync(file).size;
  log(`  built ${key} in ${loadSeconds.toFixed(1)} s (${rowCount.toLocaleString("en")} rows, ${(bytes / 1e9).toFixed(2)} GB)`);
  return { kind, size, url, key, cached: false, loadSeconds, bytes };
}

/** The columns PrismaWorkflowsStorage writes for a row (see snapshotColumns there). */
function ourColumns(row: BacklogRow) {
  const summary = readSnapshot(row.workflowName, JSON.parse(row.snapshot));
  return {
    status: summary.status,
    agentId: summary.agentId,
    threadId: summary.threadId,
    resourceId: row.resourceId ?? summary.resourceId,
    toolCalls: summary.toolCalls ? JSON.stringify(summary.toolCalls) : null,
    toolCallCount: summary.toolCalls?.length ?? 0,
    requestExcerpt: summary.requestExcerpt,
  };
}

const BATCH = 1_000;

/** Our backlog into an already migrated database of ours (`file:` or `postgres://`), as buildStore loads it. */
export async function loadOurBacklog(url: string, runs: Iterable<BacklogRow[]>): Promise<void> {
  if (databaseProvider(url) === "sqlite") await loadOursSqlite(url, sqliteFilePath(url), runs);
  else await loadOursPg(url, runs);
}

async function loadOursSqlite(url: string, file: string, runs: Iterable<BacklogRow[]>): Promise<void> {
  await deployMigrations(url);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const insert = db.prepare(`INSERT INTO workflow_snapshots (${OUR_COLUMN_NAMES}) VALUES (${OUR_COLUMNS.map(() => "?").join(", ")})`);
  const insertMany = db.transaction((batch: BacklogRow[]) => {
    for (const row of batch) insert.run(...ourRowValues(row, sqliteDate));
  });
  let batch: BacklogRow[] = [];
  for (const pair of runs) {
    batch.push(...pair);
    if (batch.length >= BATCH) (insertMany(batch), (batch = []));
  }
  if (batch.length) insertMany(batch);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/** Our table's columns both loaders fill, in ourRowValues' order, with the types a PostgreSQL batch of them arrives in (`version` keeps its default, 0). */
const OUR_COLUMNS = `workflow_name text, run_id text, resource_id text, agent_id text, thread_id text, status text, tool_calls text,
  tool_call_count int, request_excerpt text, snapshot text, created_at timestamptz, updated_at timestamptz`
  .split(",")
  .map((column) => column.trim().split(" ") as [string, string]);

const OUR_COLUMN_NAMES = OUR_COLUMNS.map(([name]) => name).join(", ");

/** A backlog row as our table's twelve columns, in the order both loaders insert them. */
function ourRowValues(row: BacklogRow, date: (value: Date) => unknown): unknown[] {
  const c = ourColumns(row);
  return [
    row.workflowName,
    row.runId,
    c.resourceId,
    c.agentId,
    c.threadId,
    c.status,
    c.toolCalls,
    c.toolCallCount,
    c.requestExcerpt,
    row.snapshot,
    date(row.createdAt),
    date(row.updatedAt),
  ];
}

async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function loadOursPg(url: string, runs: Iterable<BacklogRow[]>): Promise<void> {
  await deployMigrations(url);
  await withPg(url, async (client) => {
    const insert = `INSERT INTO workflow_snapshots (${OUR_COLUMN_NAMES})
      SELECT ${OUR_COLUMN_NAMES} FROM json_to_recordset($1::json) AS batch(${OUR_COLUMNS.map((column) => column.join(" ")).join(", ")})`;
    // A batch goes as one JSON document (parsed by PostgreSQL), not as twelve arrays whose every
    // element the driver escapes; and the next batch is computed while the server inserts this one.
    let inserting: Promise<unknown> = Promise.resolve();
    const flush = async (batch: BacklogRow[]) => {
      const rows = batch.map((row) => Object.fromEntries(ourRowValues(row, (date) => date).map((value, i) => [OUR_COLUMNS[i]![0], value])));
      const sent = client.query(insert, [JSON.stringify(rows)]);
      sent.catch(() => {}); // awaited below, or by the next flush
      await inserting;
      inserting = sent;
    };
    await pgBatches(client, runs, 500, flush);
    await inserting;
    // Each batched INSERT moves the trigger-kept counts hundreds of times in one statement, leaving
    // ~100k dead versions of a few rows (556 pages for 8 rows at 100k: 0.8 ms per total) that a live
    // system, one run per transaction with autovacuum on, prunes as it goes. Compact them, then
    // analyze everything, as autovacuum would after a bulk load.
    await client.query("VACUUM (FULL) suspended_run_counts, suspended_run_hours, suspended_threads, suspended_thread_days");
    await client.query("VACUUM ANALYZE");
  });
}

async function pgBatches(client: pg.Client, runs: Iterable<BacklogRow[]>, size: number, flush: (batch: BacklogRow[]) => Promise<void>) {
  // Prisma's timestamp(3) columns hold UTC wall time; keep the session in UTC so timestamptz → timestamp is exact.
  await client.query("SET TIME ZONE 'UTC'");
  await client.query("BEGIN");
  let batch: BacklogRow[] = [];
  for (const pair of runs) {
    batch.push(...pair);
    if (batch.length >= size) (await flush(batch), (batch = []));
  }
  if (batch.length) await flush(batch);
  await client.query("COMMIT");
}

async function loadMastraLibsql(file: string, runs: Iterable<BacklogRow[]>): Promise<void> {
  const { LibSQLStore } = await import("@mastra/libsql");
  const store = new LibSQLStore({ id: "bench-libsql", url: `file:${file}` });
  await store.init();
  await (store as unknown as { close?: () => Promise<void> }).close?.();
  const db = new Database(file);
  db.pragma("synchronous = OFF");
  // The statement LibSQLStore's persistWorkflowSnapshot runs (@mastra/libsql 1.23.1).
  const insert = db.prepare(
    `INSERT INTO mastra_workflow_snapshot (workflow_name, run_id, resourceId, snapshot, createdAt, updatedAt)
     VALUES (?, ?, ?, jsonb(?), ?, ?)`,
  );
  const insertMany = db.transaction((batch: BacklogRow[]) => {
    for (const row of batch)
      insert.run(row.workflowName, row.runId, row.resourceId, row.snapshot, row.createdAt.toISOString(), row.updatedAt.toISOString());
  });
  let batch: BacklogRow[] = [];
  for (const pair of runs) {
    batch.push(...pair);
    if (batch.length >= BATCH) (insertMany(batch), (batch = []));
  }
  if (batch.length) insertMany(batch);
  db.close();
}

async function loadMastraPg(url: string, runs: Iterable<BacklogRow[]>): Promise<void> {
  const { PostgresStore } = await import("@mastra/pg");
  const store = new PostgresStore({ id: "bench-pg", connectionString: url });
  await store.init();
  await (store as unknown as { close?: () => Promise<void> }).close?.();
  await withPg(url, async (client) => {
    // The columns PostgresStore's persistWorkflowSnapshot writes (@mastra/pg 1.27.1).
    const flush = async (batch: BacklogRow[]) => {
      const cols: unknown[][] = [[], [], [], [], [], []];
      for (const row of batch)
        [row.workflowName, row.runId, row.resourceId, row.snapshot, row.createdAt, row.updatedAt].forEach((v, i) => cols[i]!.push(v));
      await client.query(
        `INSERT INTO mastra_workflow_snapshot (workflow_name, run_id, "resourceId", snapshot, "createdAt", "updatedAt", "createdAtZ", "updatedAtZ")
         SELECT w, r, res, s::jsonb, c, u, c, u FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[]) AS t(w, r, res, s, c, u)`,
        cols,
      );
    };
    await pgBatches(client, runs, 500, flush);
    await client.query("VACUUM ANALYZE mastra_workflow_snapshot");
  });
}

/** Drops a store's database/file (used by --rebuild). */
export async function dropStore(kind: StoreKind, size: number, hash: string): Promise<void> {
  const key = `${kind}-${size}-${hash}`;
  rmSync(path.join(OUT_DIR, `${key}.done`), { force: true });
  if (kind.endsWith("-pg")) await adminQuery(`DROP DATABASE IF EXISTS "bench_${key.replaceAll("-", "_")}" WITH (FORCE)`);
  else for (const suffix of ["", "-wal", "-shm"]) rmSync(path.join(OUT_DIR, `${key}.db${suffix}`), { force: true });
}
