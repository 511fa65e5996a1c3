/**
 * `npm run bench:million [-- --sizes 10000,100000,1000000] [--rebuild]`: the next rung on PostgreSQL.
 *
 * Backlogs of each size (+10% completed runs) generated inside PostgreSQL (bench/sql-backlog.ts, the
 * same templates and mix as the main benchmark's, cached by size and template hash like its stores),
 * then at each size: every contract listing case (bench/cases.ts) with its exact total, every page of
 * threads case (bench/threads.ts, in a child process like the main run) and the size of every store
 * table and its indexes; last, what a snapshot write costs an agent at each size (see writes). Writes
 * bench/results-million.{json,md}.
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

/**
 * Inserts of new runs and a rewrite of each through the store, as agents write, at every size at once:
 * row by row, each size in turn, so that every size is timed in the same state of the machine and of
 * PostgreSQL (timed one size after another, the 1M store's writes ran right after its own threads
 * check and its 500k rule matches, and the ratio to 10k moved between 1.15x and 1.51x from run to
 * run). The runs are removed afterwards.
 *
 * A CHECKPOINT first: the threads checks leave shared buffers full of dirty pages (at 1M, 500k rule
 * matches written and removed), and a write that needs a buffer then writes one of them out itself,
 * a cost of the check before it rather than of the write (figures in bench/README.md). The backends'
 * own buffer writes during the phase are logged.
 */
async function writes(urls: string[], templates: Awaited<ReturnType<typeof loadTemplates>>) {
  // CHECKPOINT needs a superuser or pg_checkpoint; buffers_backend left pg_stat_bgwriter in PostgreSQL 17.
  await admin(POSTGRES_ADMIN_URL, "CHECKPOINT").catch((error: Error) => log(`  no CHECKPOINT before the writes: ${error.message}`));
  const backendWrites = () =>
    admin<{ n: string }>(POSTGRES_ADMIN_URL, "SELECT buffers_backend AS n FROM pg_stat_bgwriter").then(
      ([row]) => Number(row!.n),
      () => undefined,
    );
  const backendWritesBefore = await backendWrites();
  const stores = await Promise.all(
    urls.map(async (url) => {
      const storage = await createMastraStorage(url);
      return {
        url,
        persist: persistWith((await storage.getStore("workflows")) as unknown as WorkflowsDomain),
        insert: [] as number[],
        update: [] as number[],
      };
    }),
  );
  const runs = [...generateBacklog(compileTemplates(templates.templates), WRITES)].slice(0, WRITES).map((rows) => {
    const runId = randomUUID();
    return rows.map((row) => ({ ...row, runId, snapshot: row.snapshot.replaceAll(rows[0]!.runId, runId) }));
  });
  for (const phase of ["insert", "update"] as const) {
    for (const rows of runs) {
      for (const row of rows) {
        const at = phase === "insert" ? row.updatedAt : new Date(row.updatedAt.getTime() + 1_000);
        for (const store of stores) {
          const t = performance.now();
          await store.persist(row, JSON.parse(row.snapshot), at);
          store[phase].push(performance.now() - t);
        }
      }
    }
  }
  const backendWritesAfter = await backendWrites();
  if (backendWritesBefore !== undefined && backendWritesAfter !== undefined)
    log(`  buffers written out by the writing backends themselves during the writes: ${backendWritesAfter - backendWritesBefore}`);
  const written: Record<string, MillionSizeResult["writes"]> = {};
  for (const { url, insert, update } of stores) {
    await admin(url, `DELETE FROM "workflow_snapshots" WHERE "run_id" IN (${runs.map((rows) => `'${rows[0]!.runId}'`).join(", ")})`);
    await admin(url, `DELETE FROM "waiting_tool_calls"; DELETE FROM "departed_tool_calls"`);
    await disconnectDb(url);
    // The first tenth warms the connection and the JIT.
    written[url] = { insert: stats(insert.slice(insert.length / 10)), update: stats(update.slice(update.length / 10)) };
  }
  return written;
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
const measured: { size: number; url: string; result: Omit<MillionSizeResult, "writes"> }[] = [];
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
  const tables = await sizes(url);
  measured.push({ size, url, result: { buildSeconds, listing, threads, tables } });
}
log(`snapshot writes through the store, ${WRITES} runs, every size in turn`);
const written = await writes(
  measured.map((m) => m.url),
  templates,
);
for (const { size, url, result } of measured) {
  results[size] = { ...result, writes: written[url]! };
  log(
    `  ${size.toLocaleString("en")}: insert median ${written[url]!.insert.median.toFixed(2)} ms, update ${written[url]!.update.median.toFixed(2)} ms`,
  );
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
