/**
 * `npm run bench:million [-- --sizes 10000,100000,1000000] [--rebuild]`: the next rung on PostgreSQL.
 *
 * Backlogs of each size (+10% completed runs) generated inside PostgreSQL (bench/sql-backlog.ts, the
 * same templates and mix as the main benchmark's, cached by size and template hash like its stores),
 * then at each size: every contract listing case (bench/cases.ts) with its exact total, every page of
 * threads case (bench/threads.ts, in a child process like the main run), what a snapshot write costs
 * an agent there (inserts of new runs and rewrites of them through the store, removed afterwards), and
 * the size of every store table and its indexes. Writes bench/results-million.{json,md}.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import pg from "pg";
import { disconnectDb } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { listSuspendedRuns } from "../lib/runs/list-suspended-runs.ts";
import { createMastraStorage } from "../lib/store/index.ts";
import { BENCH_DIR, compileTemplates, generateBacklog, loadTemplates, OUT_DIR } from "./backlog.ts";
import { CASES } from "./cases.ts";
import { child } from "./children.ts";
import { generateBacklogInSql } from "./sql-backlog.ts";
import { pgQuery, POSTGRES_ADMIN_URL } from "./stores.ts";
import { millionReport, type MillionResults, type MillionSizeResult } from "./million-report.ts";
import { THREAD_CASES, type ThreadPageResult } from "./threads.ts";
import { measure, stats, type Stats } from "./timing.ts";
import { persistWith, type WorkflowsDomain } from "./write-path.ts";

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1]! : fallback;
};
const SIZES = option("sizes", "10000,100000,1000000").split(",").map(Number);
const REBUILD = process.argv.includes("--rebuild");
const WRITES = 300;
const AS_CHILD = process.argv.includes("--json");
// As a child, stdout carries only the JSON line.
const log = (line: string) => (AS_CHILD ? console.error(line) : console.log(line));
const started = performance.now();

const admin = async <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> => (await pgQuery<T>(url, text)).rows;
const urlOf = (database: string) => Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${database}` }).toString();

/** The store generated in SQL at `size`, built once and kept (marker file), migrated to the current schema. */
async function store(size: number, templates: Awaited<ReturnType<typeof loadTemplates>>): Promise<{ url: string; buildSeconds?: number }> {
  const database = `bench_sqlgen_${size}_${templates.hash}`;
  const marker = path.join(OUT_DIR, `${database}.done`);
  const url = urlOf(database);
  const exists = (await admin(POSTGRES_ADMIN_URL, `SELECT 1 FROM pg_database WHERE datname = '${database}'`)).length > 0;
  if (exists && existsSync(marker) && !REBUILD) {
    if ((await deployMigrations(url)).applied.length) await admin(url, "VACUUM ANALYZE");
    return { url };
  }
  rmSync(marker, { force: true });
  await admin(POSTGRES_ADMIN_URL, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin(POSTGRES_ADMIN_URL, `CREATE DATABASE "${database}"`);
  await deployMigrations(url);
  const t = performance.now();
  log(`  generating ${size.toLocaleString("en")} suspended runs in SQL…`);
  await generateBacklogInSql(url, templates.templates, size, { log });
  // A console would have announced these long ago (and deleted them): a live system does not keep them.
  await admin(url, `DELETE FROM "waiting_tool_calls"`);
  await admin(url, "VACUUM ANALYZE");
  const buildSeconds = (performance.now() - t) / 1000;
  writeFileSync(marker, JSON.stringify({ size, buildSeconds, at: new Date().toISOString() }));
  log(`  built in ${buildSeconds.toFixed(0)} s`);
  return { url, buildSeconds };
}

/** Inserts of new runs and a rewrite of each through the store, as agents write; the runs are removed afterwards. */
async function writes(url: string, templates: Awaited<ReturnType<typeof loadTemplates>>) {
  const storage = await createMastraStorage(url);
  const persist = persistWith((await storage.getStore("workflows")) as unknown as WorkflowsDomain);
  const runs = [...generateBacklog(compileTemplates(templates.templates), WRITES)].slice(0, WRITES).map((rows) => {
    const runId = randomUUID();
    return rows.map((row) => ({ ...row, runId, snapshot: row.snapshot.replaceAll(rows[0]!.runId, runId) }));
  });
  const insert: number[] = [];
  const update: number[] = [];
  for (const [phase, samples] of [
    ["insert", insert],
    ["update", update],
  ] as const) {
    for (const rows of runs) {
      for (const row of rows) {
        const t = performance.now();
        await persist(row, JSON.parse(row.snapshot), phase === "insert" ? row.updatedAt : new Date(row.updatedAt.getTime() + 1_000));
        samples.push(performance.now() - t);
      }
    }
  }
  await admin(url, `DELETE FROM "workflow_snapshots" WHERE "run_id" IN (${runs.map((rows) => `'${rows[0]!.runId}'`).join(", ")})`);
  await admin(url, `DELETE FROM "waiting_tool_calls"; DELETE FROM "departed_tool_calls"`);
  await disconnectDb(url);
  // The first tenth warms the connection and the JIT.
  return { insert: stats(insert.slice(insert.length / 10)), update: stats(update.slice(update.length / 10)) };
}

async function sizes(url: string) {
  return admin<{ table: string; table_bytes: string; index_bytes: string; rows: string }>(
    url,
    `SELECT c.relname AS "table", pg_table_size(c.oid) AS table_bytes, pg_indexes_size(c.oid) AS index_bytes, c.reltuples::bigint AS rows
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname IN ('workflow_snapshots', 'suspended_run_counts', 'suspended_run_hours',
       'suspended_threads', 'suspended_thread_days', 'pending_tool_calls', 'waiting_tool_calls', 'departed_tool_calls')
     ORDER BY pg_total_relation_size(c.oid) DESC`,
  );
}

const templates = await loadTemplates(log);
const results: Record<number, MillionSizeResult> = {};
for (const size of SIZES) {
  log(`PostgreSQL, ${size.toLocaleString("en")} suspended runs`);
  const { url, buildSeconds } = await store(size, templates);
  const listing: Record<string, { stats: Stats; total: number }> = {};
  for (const c of CASES) {
    const { stats: s, last } = await measure(() => listSuspendedRuns(c.ours, url));
    listing[c.id] = { stats: s, total: last.total };
    log(`  ${c.label}: median ${s.median.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, total ${last.total.toLocaleString("en")}`);
  }
  await disconnectDb(url);
  const threads = ((await child("threads-child.ts", [url], {}, 1_800_000)) as Record<string, Record<string, ThreadPageResult>>)[url]!;
  for (const c of THREAD_CASES)
    log(
      `  threads ${c.label}: median ${threads[c.id]!.stats.median.toFixed(2)} ms, ${threads[c.id]!.threadTotal} threads / ${threads[c.id]!.callTotal} calls`,
    );
  const written = await writes(url, templates);
  log(`  snapshot writes: insert median ${written.insert.median.toFixed(2)} ms, update ${written.update.median.toFixed(2)} ms`);
  const tables = await sizes(url);
  results[size] = { buildSeconds, listing, threads, writes: written, tables };
}

const json: MillionResults = { at: new Date().toISOString(), seconds: (performance.now() - started) / 1000, sizes: SIZES, results };
writeFileSync(path.join(BENCH_DIR, "results-million.json"), JSON.stringify(json, null, 2));
const report = millionReport(json);
const markdown = [
  "# Benchmark: PostgreSQL from 10k to 1M waiting runs (`npm run bench:million`)",
  "",
  `Backlogs generated in SQL (bench/sql-backlog.ts); times in ms (median / p95). ${json.at}; ${Math.round(json.seconds)} s.`,
  "",
  report.table,
  "",
  "| target | measured | met |",
  "| --- | --- | --- |",
  ...report.targets.map((x) => `| ${x.target} | ${x.value} | ${x.met ? "yes" : "**no**"} |`),
  "",
].join("\n");
writeFileSync(path.join(BENCH_DIR, "results-million.md"), markdown);
log(markdown);
// As a child of `npm run bench` (--json): the results as the last line of stdout.
if (AS_CHILD) console.log(JSON.stringify(json));
process.exit(0);
