/**
 * `npx tsx bench/write-path.ts [writes]`: what every agent pays on every suspend and resume — the
 * store persisting a snapshot — on our store (SQLite, PostgreSQL: extracted columns, 8 indexes and
 * the trigger-kept counts, hours and thread summaries) against Mastra's LibSQLStore and
 * PostgresStore, through each store's own `persistWorkflowSnapshot`. Each store gets a fresh
 * database, a warm-up of 1,000 run snapshots (2,000 rows), then `writes` new runs (inserts) and
 * as many rewrites of them (updates, as Mastra does when a run moves on), alternating stores so
 * that machine noise hits all four alike. Prints median and p95 per store and the ratios; `npm run
 * bench` runs it too (bench/results.md, "Snapshot writes").
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { WorkflowRunState } from "@mastra/core/workflows";
import { compileTemplates, generateBacklog, loadTemplates, type BacklogRow } from "./backlog.ts";
import { POSTGRES_ADMIN_URL } from "./stores.ts";
import { stats, type Stats } from "./timing.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { createMastraStorage } from "../lib/store/index.ts";
import { disconnectDb } from "../lib/db/client.ts";

const WARMUP_RUNS = 1_000;

export type Persist = (row: BacklogRow, snapshot: WorkflowRunState, at: Date) => Promise<void>;
interface StoreUnderTest {
  name: string;
  persist: Persist;
  close: () => Promise<void>;
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freshPg(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const database = `bench_write_${name}_${randomUUID().slice(0, 8)}`;
  await adminQuery(`CREATE DATABASE "${database}"`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`) };
}

export type WorkflowsDomain = {
  persistWorkflowSnapshot(input: {
    workflowName: string;
    runId: string;
    resourceId?: string;
    snapshot: WorkflowRunState;
    createdAt?: Date;
    updatedAt?: Date;
  }): Promise<void>;
};
export const persistWith =
  (workflows: WorkflowsDomain): Persist =>
  (row, snapshot, at) =>
    workflows.persistWorkflowSnapshot({
      workflowName: row.workflowName,
      runId: row.runId,
      resourceId: row.resourceId ?? undefined,
      snapshot,
      createdAt: row.createdAt,
      updatedAt: at,
    });

async function openStores(dir: string): Promise<StoreUnderTest[]> {
  const oursSqliteUrl = `file:${path.join(dir, "ours.db")}`;
  await deployMigrations(oursSqliteUrl);
  const oursPg = await freshPg("ours");
  await deployMigrations(oursPg.url);
  const mastraPg = await freshPg("mastra");
  const { LibSQLStore } = await import("@mastra/libsql");
  const { PostgresStore } = await import("@mastra/pg");
  const libsql = new LibSQLStore({ id: "bench-write-libsql", url: `file:${path.join(dir, "mastra.db")}` });
  const postgres = new PostgresStore({ id: "bench-write-pg", connectionString: mastraPg.url });
  await libsql.init();
  await postgres.init();
  const domain = async (store: { getStore(name: "workflows"): Promise<unknown> }) => (await store.getStore("workflows")) as WorkflowsDomain;
  const oursSqlite = await createMastraStorage(oursSqliteUrl);
  const oursPostgres = await createMastraStorage(oursPg.url);
  return [
    { name: "ours SQLite", persist: persistWith(await domain(oursSqlite)), close: () => disconnectDb(oursSqliteUrl) },
    { name: "Mastra LibSQLStore", persist: persistWith(await domain(libsql)), close: async () => {} },
    {
      name: "ours PostgreSQL",
      persist: persistWith(await domain(oursPostgres)),
      close: async () => (await disconnectDb(oursPg.url), await oursPg.drop()),
    },
    {
      name: "Mastra PostgresStore",
      persist: persistWith(await domain(postgres)),
      close: async () => (await (postgres as unknown as { close?: () => Promise<void> }).close?.(), await mastraPg.drop()),
    },
  ];
}

export interface WritePathResult {
  writes: number;
  warmupRows: number;
  stores: Record<string, { insert: Stats; update: Stats }>;
  ratios: Array<{ ours: string; theirs: string; insert: number; update: number }>;
}

/** Times `runs` new runs (their snapshot rows) and as many rewrites on each store, after a warm-up. */
export async function measureWritePath(runs: number): Promise<WritePathResult> {
  const { templates } = await loadTemplates();
  const rows = [...generateBacklog(compileTemplates(templates), WARMUP_RUNS + runs)].flat();
  const parsed = rows.map((row) => JSON.parse(row.snapshot) as WorkflowRunState);
  const dir = mkdtempSync(path.join(tmpdir(), "bench-write-"));
  const stores = await openStores(dir);
  const inserts = new Map<string, number[]>(stores.map((s) => [s.name, []]));
  const updates = new Map<string, number[]>(stores.map((s) => [s.name, []]));
  const warmupRows = rows.length - [...generateBacklog(compileTemplates(templates), runs)].flat().length;
  try {
    for (let i = 0; i < rows.length; i++) {
      for (const store of stores) {
        const started = performance.now();
        await store.persist(rows[i]!, parsed[i]!, rows[i]!.updatedAt);
        if (i >= warmupRows) inserts.get(store.name)!.push(performance.now() - started);
      }
    }
    // Rewrites: the same runs persisted again a moment later (what a resume or the next step writes).
    for (let i = warmupRows; i < rows.length; i++) {
      for (const store of stores) {
        const started = performance.now();
        await store.persist(rows[i]!, parsed[i]!, new Date(rows[i]!.updatedAt.getTime() + 1_000));
        updates.get(store.name)!.push(performance.now() - started);
      }
    }
  } finally {
    for (const store of stores) await store.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  const result: WritePathResult = { writes: rows.length - warmupRows, warmupRows, stores: {}, ratios: [] };
  for (const store of stores)
    result.stores[store.name] = { insert: stats(inserts.get(store.name)!), update: stats(updates.get(store.name)!) };
  for (const [ours, theirs] of PAIRS) {
    const ratio = (kind: "insert" | "update") => result.stores[ours]![kind].median / result.stores[theirs]![kind].median;
    result.ratios.push({ ours, theirs, insert: ratio("insert"), update: ratio("update") });
  }
  return result;
}

const PAIRS = [
  ["ours SQLite", "Mastra LibSQLStore"],
  ["ours PostgreSQL", "Mastra PostgresStore"],
] as const;

/** The write-path table and its targets (< 1.5x Mastra's store, median, inserts and updates). */
export function writePathReport(result: WritePathResult) {
  const fmt = (s: Stats) => `${s.median.toFixed(2)} / ${s.p95.toFixed(2)}`;
  const table = [
    `Snapshot rows written: ${result.writes} inserts and as many updates per store, after ${result.warmupRows} warm-up rows (bench/write-path.ts).`,
    "",
    "| store | insert med / p95 ms | update med / p95 ms |",
    "| --- | --- | --- |",
    ...Object.entries(result.stores).map(([name, r]) => `| ${name} | ${fmt(r.insert)} | ${fmt(r.update)} |`),
  ].join("\n");
  const targets = result.ratios.map((r) => ({
    target: `snapshot write, ${r.ours} vs ${r.theirs} < 1.5x (median, insert / update)`,
    value: `${r.insert.toFixed(2)}x / ${r.update.toFixed(2)}x`,
    met: r.insert < 1.5 && r.update < 1.5,
  }));
  return { table, targets };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = writePathReport(await measureWritePath(Number(process.argv[2] ?? 400)));
  console.log(`\n${report.table}\n`);
  for (const target of report.targets) console.log(`${target.target}: ${target.value} (${target.met ? "met" : "NOT met"})`);
}
