/**
 * `npx tsx bench/write-breakdown.ts <postgres url>… [--writes 300]`: where a snapshot insert's time
 * goes on each given PostgreSQL store (the 1M target of issue 27: inserts at 1,000,000 runs within
 * 1.2x of 10,000). New runs are persisted through the store as agents write them (bench/write-path.ts),
 * with PostgreSQL counting the time of every trigger function (`track_functions = 'pl'`, its
 * statistics read once the store's connections are closed); what is left of the insert is the
 * table's own write and its indexes. The runs are removed afterwards. Prints a table per store,
 * and the ratios between the first store and each other one.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { disconnectDb } from "../lib/db/client.ts";
import { createMastraStorage } from "../lib/store/index.ts";
import { compileTemplates, generateBacklog, loadTemplates } from "./backlog.ts";
import { pgQuery } from "./stores.ts";
import { persistWith, type WorkflowsDomain } from "./write-path.ts";

const urls = process.argv.slice(2).filter((arg) => /^postgres(ql)?:\/\//.test(arg));
const at = process.argv.indexOf("--writes");
const WRITES = at >= 0 ? Number(process.argv[at + 1]) : 300;
if (!urls.length || !Number.isInteger(WRITES) || WRITES < 10)
  throw new Error("usage: write-breakdown.ts <postgres url>… [--writes n >= 10]");

const admin = async <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> => (await pgQuery<T>(url, text)).rows;

const { templates } = await loadTemplates();
/** Runs as the backlog generator writes them, each with fresh ids: `n` runs, one or more rows each. */
const freshRuns = (n: number) =>
  [...generateBacklog(compileTemplates(templates), n)].slice(0, n).map((rows) => {
    const runId = randomUUID();
    return rows.map((row) => ({ ...row, runId, snapshot: row.snapshot.replaceAll(rows[0]!.runId, runId) }));
  });

interface Breakdown {
  url: string;
  runs: number;
  rows: number;
  insertMsPerRow: number;
  functions: Array<{ name: string; calls: number; selfMs: number; totalMs: number }>;
}

const results: Breakdown[] = [];
for (const url of urls) {
  const database = new URL(url).pathname.slice(1);
  await admin(url, `ALTER DATABASE "${database}" SET track_functions = 'pl'`);
  const runs = freshRuns(WRITES + 30);
  try {
    const storage = await createMastraStorage(url);
    const persist = persistWith((await storage.getStore("workflows")) as unknown as WorkflowsDomain);
    // The first 30 runs warm the connection, the plans and the cache; then the counting starts.
    for (const rows of runs.slice(0, 30)) for (const row of rows) await persist(row, JSON.parse(row.snapshot), row.updatedAt);
    await admin(url, "SELECT pg_stat_reset()");
    let rowsWritten = 0;
    let spent = 0;
    for (const rows of runs.slice(30)) {
      for (const row of rows) {
        const t = performance.now();
        await persist(row, JSON.parse(row.snapshot), row.updatedAt);
        spent += performance.now() - t;
        rowsWritten++;
      }
    }
    // A backend reports its function statistics when it ends.
    await disconnectDb(url);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const functions = await admin<{ funcname: string; calls: string; self_time: number; total_time: number }>(
      url,
      `SELECT funcname, calls, self_time, total_time FROM pg_stat_user_functions ORDER BY total_time DESC`,
    );
    results.push({
      url,
      runs: WRITES,
      rows: rowsWritten,
      insertMsPerRow: spent / rowsWritten,
      functions: functions.map((f) => ({ name: f.funcname, calls: Number(f.calls), selfMs: f.self_time, totalMs: f.total_time })),
    });
  } finally {
    await admin(url, `DELETE FROM "workflow_snapshots" WHERE "run_id" IN (${runs.map((rows) => `'${rows[0]!.runId}'`).join(", ")})`);
    await admin(url, `DELETE FROM "waiting_tool_calls"; DELETE FROM "departed_tool_calls"`);
    await admin(url, `ALTER DATABASE "${database}" RESET track_functions`);
    await disconnectDb(url);
  }
}

for (const result of results) {
  const perRow = (ms: number) => ((ms / result.rows) * 1000).toFixed(0);
  const triggersMs = result.functions.reduce((sum, f) => sum + f.selfMs, 0);
  console.log(
    `\n${new URL(result.url).pathname.slice(1)}: ${result.rows} rows of ${result.runs} new runs, ${result.insertMsPerRow.toFixed(3)} ms per row (client side)`,
  );
  console.log(`| trigger function | calls per row | self µs per row | total µs per row |`);
  console.log(`| --- | --- | --- | --- |`);
  for (const f of result.functions)
    console.log(`| ${f.name} | ${(f.calls / result.rows).toFixed(2)} | ${perRow(f.selfMs)} | ${perRow(f.totalMs)} |`);
  console.log(`| all trigger functions (self) | | ${perRow(triggersMs)} | |`);
  console.log(
    `| the rest (client, round trip, the table and its indexes) | | ${perRow(result.insertMsPerRow * result.rows - triggersMs)} | |`,
  );
}
if (results.length > 1) {
  const [base, ...others] = results;
  for (const other of others) {
    const self = (r: Breakdown, name: string) => (r.functions.find((f) => f.name === name)?.selfMs ?? 0) / r.rows;
    const names = [...new Set([...base!.functions, ...other.functions].map((f) => f.name))];
    console.log(
      `\n${new URL(other.url).pathname.slice(1)} vs ${new URL(base!.url).pathname.slice(1)}: per row ${(other.insertMsPerRow / base!.insertMsPerRow).toFixed(2)}x`,
    );
    for (const name of names) {
      const [a, b] = [self(base!, name), self(other, name)];
      console.log(`  ${name}: ${(a * 1000).toFixed(0)} → ${(b * 1000).toFixed(0)} µs (${a > 0 ? (b / a).toFixed(2) : "—"}x)`);
    }
    const rest = (r: Breakdown) => r.insertMsPerRow - r.functions.reduce((sum, f) => sum + f.selfMs, 0) / r.rows;
    console.log(
      `  the rest: ${(rest(base!) * 1000).toFixed(0)} → ${(rest(other) * 1000).toFixed(0)} µs (${(rest(other) / rest(base!)).toFixed(2)}x)`,
    );
  }
}
process.exit(0);
