/**
 * `npm run bench` / `npm run bench -- --quick` (also `npm run bench:quick`).
 *
 * Full: backlogs of 10,000 and 100,000 suspended runs in our store (SQLite, PostgreSQL) and in
 * Mastra's LibSQLStore and PostgresStore; our cross-agent listing and the real
 * `agent.listSuspendedRuns()` timed on each; the runs page rendered by `next start` at 100k; a
 * decision end to end vs bare Mastra; a bulk approval vs single ones; peak memory of a process listing 100k. Writes
 * bench/results.json and bench/results.md.
 * Quick: 2,000 and 10,000 on our store, Mastra's LibSQLStore at 1,000 with a 10 s cap, the
 * decision and memory checks; no page build. Exits 1 only on a clear regression.
 *
 * Both: the open-loop load (bench/open-loop.ts: latency at fixed arrival rates across two instances
 * on PostgreSQL and one on SQLite, saturation per instance, each against the floor route), on the
 * production build (`next build` first); quick: a 5,000 backlog and short phases.
 *
 * Both: a rule's backtest and the suggested rules over a history of decisions (bench/history-child.ts:
 * 100,000 decisions, 10,000 in quick), on SQLite and PostgreSQL.
 *
 * Full only: PostgreSQL at 10k, 100k and 1M waiting runs generated in SQL (bench/million.ts, the 1M
 * table; its databases are kept between runs, the first build of 1M takes about half an hour).
 *
 * Full only: the live queue (bench/live.ts: idle streams, propagation across instances under the
 * mix) and the open-loop load with 1,000 live streams held and conditional reads (bench/run-load.ts).
 *
 * Flags: --quick, --rebuild (drop cached stores first), --no-page, --no-mastra, --no-decision, --no-write, --no-load (the live
 * queue too), --no-live, --no-insights, --no-million.
 */
import { disconnectDb } from "../lib/db/client.ts";
import { listSuspendedRuns } from "../lib/runs/list-suspended-runs.ts";
import { backlogShape, loadTemplates } from "./backlog.ts";
import { CASES, createResults, scoped, v, type BenchResults, type MastraResult, type RulesResult } from "./cases.ts";
import { child } from "./children.ts";
import { writeReport } from "./report.ts";
import { runLoad } from "./run-load.ts";
import { bareSqliteListing, type BareOptions } from "./bare-sqlite.ts";
import { sqliteFilePath } from "../lib/db/database-url.ts";
import { buildStore, dropStore, type BuiltStore, type StoreKind } from "./stores.ts";
import { MastraWorker, measure, stats, type Stats, type WorkerReply } from "./timing.ts";
import { THREAD_CASES, type ThreadPageResult } from "./threads.ts";
import { measureWritePath } from "./write-path.ts";

const args = new Set(process.argv.slice(2));
const QUICK = args.has("--quick");
const OUR_SIZES = QUICK ? [2_000, 10_000] : [10_000, 100_000];
const MASTRA_SIZES: Record<"libsql" | "pg", number[]> = QUICK
  ? { libsql: [1_000], pg: [] }
  : { libsql: [10_000, 100_000], pg: [10_000, 100_000] };
const CAP_MS = QUICK ? 10_000 : 60_000;
const started = performance.now();
const log = (line: string) => console.log(line);

const results = createResults({ quick: QUICK, capMs: CAP_MS });

/* ---------- build ---------- */

const { templates, hash } = await loadTemplates(log);
log(`templates: ${templates.length} demo runs (hash ${hash}); cap for Mastra calls ${CAP_MS / 1000} s`);
const kinds: Array<[StoreKind, number[]]> = [
  ["ours-sqlite", OUR_SIZES],
  ["ours-pg", OUR_SIZES],
  ...(args.has("--no-mastra")
    ? []
    : ([
        ["mastra-libsql", MASTRA_SIZES.libsql],
        ["mastra-pg", MASTRA_SIZES.pg],
      ] as Array<[StoreKind, number[]]>)),
];
const built = new Map<string, BuiltStore>();
for (const [kind, sizes] of kinds) {
  for (const size of sizes) {
    results.backlog[size] = backlogShape(size);
    if (args.has("--rebuild")) await dropStore(kind, size, hash);
    const store = await buildStore(kind, size, templates, hash, log);
    built.set(`${kind}:${size}`, store);
    results.stores.push(store);
  }
}
log(`stores ready after ${((performance.now() - started) / 1000).toFixed(0)} s`);

/* ---------- our listing ---------- */

const engines = [
  ["sqlite", "ours-sqlite"],
  ["pg", "ours-pg"],
] as const;
for (const [engine, kind] of engines) {
  results.ours[engine] = {};
  results.oursScoped[engine] = {};
  for (const size of OUR_SIZES) {
    const { url } = built.get(`${kind}:${size}`)!;
    results.ours[engine][size] = {};
    results.oursScoped[engine][size] = {};
    for (const c of CASES) {
      for (const [target, options] of [
        [results.ours, c.ours],
        [results.oursScoped, scoped(c)],
      ] as const) {
        const { stats, last } = await measure(
          () => listSuspendedRuns(options, url),
          QUICK ? { warmup: 5, minSamples: 15, budgetMs: 400, maxSamples: 60 } : {},
        );
        target[engine]![size]![c.id] = { stats, total: last.total, runs: last.runs.length };
      }
      const r = results.ours[engine][size][c.id]!;
      log(
        `  ours ${engine} ${size} ${c.label}: median ${r.stats.median.toFixed(2)} ms, p95 ${r.stats.p95.toFixed(2)} ms, total ${r.total}`,
      );
    }
    await disconnectDb(url);
    if (engine === "sqlite") {
      const bare = bareSqliteListing(sqliteFilePath(url));
      results.bareScoped[size] = {};
      for (const c of CASES) {
        const { stats, last } = await measure(
          async () => bare.list(scoped(c) as unknown as BareOptions),
          QUICK ? { warmup: 5, minSamples: 15, budgetMs: 400, maxSamples: 60 } : {},
        );
        results.bareScoped[size][c.id] = { stats, total: last.total, runs: last.runs };
        if (last.total !== results.oursScoped.sqlite?.[size]?.[c.id]?.total)
          results.mismatches.push(`${c.label} at ${size}: bare SQL total ${last.total}`);
      }
      bare.close();
    }
  }
}

/* ---------- the review queue's pages of threads ---------- */

const ourStores = engines.flatMap(([engine, kind]) => OUR_SIZES.map((size) => ({ engine, size, url: built.get(`${kind}:${size}`)!.url })));

/** One child measures every store of ours (children.ts: eachStore); each store's answer, checked by `complete`. */
async function measureOurStores<T>(script: string, complete: (measured: T | undefined) => boolean) {
  const byStore = (await child(script, [...ourStores.map((store) => store.url), ...(QUICK ? ["--quick"] : [])])) as Record<
    string,
    T | undefined
  >;
  return ourStores.map(({ engine, size, url }) => {
    const measured = byStore[url];
    if (!complete(measured)) throw new Error(`${script} ${engine} ${size}: ${JSON.stringify(byStore)}`);
    return { engine, size, measured: measured! };
  });
}

for (const { engine, size, measured } of await measureOurStores<Record<string, ThreadPageResult>>("threads-child.ts", Boolean)) {
  (results.threads[engine] ??= {})[size] = measured;
  for (const c of THREAD_CASES) {
    const r = measured[c.id]!;
    log(
      `  threads ${engine} ${size} ${c.label}: median ${r.stats.median.toFixed(2)} ms, p95 ${r.stats.p95.toFixed(2)} ms, ${r.threadTotal} threads / ${r.callTotal} calls`,
    );
  }
}

/* ---------- opening a call with its context ---------- */

for (const { engine, size, measured } of await measureOurStores<{ stats: Stats; calls: number }>("context-child.ts", (m) => !!m?.stats)) {
  (results.context[engine] ??= {})[size] = measured;
  log(
    `  open a call with its context ${engine} ${size}: median ${measured.stats.median.toFixed(2)} ms, p95 ${measured.stats.p95.toFixed(2)} ms`,
  );
}

/* ---------- rules: 100 per newly waiting call, and a dry run over the backlog ---------- */

for (const { engine, size, measured } of await measureOurStores<RulesResult>("rules-child.ts", (m) => !!m?.dryRun)) {
  (results.rules[engine] ??= {})[size] = measured;
  log(
    `  rules ${engine} ${size}: 100 rules ${(measured.evaluation.median * 1000).toFixed(1)} µs median per call (p95 ${(measured.evaluation.p95 * 1000).toFixed(1)} µs); ` +
      `dry run over ${measured.waiting} waiting calls: median ${measured.dryRun.median.toFixed(0)} ms, p95 ${measured.dryRun.p95.toFixed(0)} ms`,
  );
}

/* ---------- rules over the past: a backtest and the suggested rules over a history of decisions ---------- */

log(`rules over the past: ${QUICK ? "10,000" : "100,000"} decisions on SQLite and PostgreSQL…`);
results.history = (await child("history-child.ts", QUICK ? ["--quick"] : [], {}, 1_800_000)) as BenchResults["history"];
for (const [engine, measured] of Object.entries(results.history)) {
  if (!measured?.backtestAll) throw new Error(`history-child.ts ${engine}: ${JSON.stringify(measured)}`);
  log(
    `  history ${engine} ${measured.size}: backtest median ${measured.backtestAll.median.toFixed(0)} ms (every agent), ${measured.backtestScoped.median.toFixed(0)} ms (one tool); ` +
      `suggested rules median ${measured.proposals.median.toFixed(0)} ms (${measured.proposalsOffered} suggested)`,
  );
}

/* ---------- Mastra ---------- */

if (!args.has("--no-mastra")) {
  for (const store of ["libsql", "pg"] as const) {
    results.mastra[store] = {};
    for (const size of MASTRA_SIZES[store]) {
      const { url } = built.get(`mastra-${store}:${size}`)!;
      const worker = new MastraWorker();
      results.mastra[store][size] = {};
      // Opens the store and loads Mastra before anything is timed.
      await worker.call({ store, url, agent: "refunds", options: { threadId: "no-such-thread", perPage: 1, page: 0 } }, CAP_MS * 2);
      for (const c of CASES) {
        const result: MastraResult = { samples: [] };
        const callStarted = performance.now();
        for (;;) {
          const reply: WorkerReply = await worker.call({ store, url, agent: "refunds", options: c.mastra }, CAP_MS);
          if ("timedOut" in reply) {
            result.timedOut = true;
            break;
          }
          if ("error" in reply) {
            result.error = reply.error;
            break;
          }
          result.samples.push(reply.ms);
          result.total = reply.total;
          result.rssMb = Math.max(result.rssMb ?? 0, reply.rssMb);
          // Slow calls: one sample (they take seconds to minutes); fast ones: warm-up + up to 10.
          if (reply.ms > 3_000 || result.samples.length >= (QUICK ? 6 : 11) || performance.now() - callStarted > (QUICK ? 5_000 : 20_000))
            break;
        }
        if (result.samples.length > 1) result.samples.shift(); // the first was the warm-up
        if (result.samples.length) result.stats = stats(result.samples);
        results.mastra[store][size][c.id] = result;
        const ours = results.oursScoped[store === "libsql" ? "sqlite" : "pg"]?.[size]?.[c.id];
        if (ours && result.total !== undefined && ours.total !== result.total) {
          results.mismatches.push(`${c.label} at ${size} on ${store}: ours ${ours.total}, Mastra ${result.total}`);
        }
        log(
          `  Mastra ${store} ${size} ${c.label}: ${result.timedOut ? `> ${CAP_MS / 1000} s (killed)` : result.error ? `error ${result.error}` : `median ${result.stats!.median.toFixed(1)} ms (n=${result.stats!.n}), total ${result.total}`}`,
        );
      }
      worker.kill();
    }
  }
}

/* ---------- decision, memory, page (children, so each has its own process and RSS) ---------- */

const biggest = OUR_SIZES.at(-1)!;
log(`memory: a process listing the ${biggest.toLocaleString("en")} backlog…`);
results.memory = {
  sqlite: await child("memory-child.ts", [built.get(`ours-sqlite:${biggest}`)!.url], {}, 600_000, { compiled: true }),
  pg: await child("memory-child.ts", [built.get(`ours-pg:${biggest}`)!.url], {}, 600_000, { compiled: true }),
};
log(`  ${JSON.stringify(results.memory)}`);
if (!args.has("--no-write")) {
  log("snapshot writes: our store vs Mastra's LibSQLStore and PostgresStore…");
  results.writePath = await measureWritePath(QUICK ? 150 : 400);
  for (const r of results.writePath.ratios)
    log(`  ${r.ours} vs ${r.theirs}: insert ${r.insert.toFixed(2)}x, update ${r.update.toFixed(2)}x`);
}

if (!args.has("--no-decision")) {
  log("decision: decide() vs bare agent.approveToolCall()…");
  results.decision = await child("decision.ts", [QUICK ? "8" : "20"]);
  log(`  ${JSON.stringify(results.decision)}`);
  if (!QUICK) {
    log("remote decision: decide() through the example Mastra server vs embedded…");
    results.remoteDecision = await child("remote-decision.ts", ["20"]);
    log(`  ${JSON.stringify(results.remoteDecision)}`);
  }
  log("audit chain: decision throughput chained vs the trigger off, audit:verify on PostgreSQL…");
  results.auditChain = await child(
    "audit-chain.ts",
    ["--json", ...(QUICK ? ["--decisions=30", "--rounds=3", "--rows=100000"] : [])],
    {},
    3_600_000,
  );
  log(`  ${JSON.stringify(results.auditChain)}`);
  log("bulk: one bulk approval vs single approvals, SQLite and PostgreSQL…");
  results.bulk = await child("bulk.ts", QUICK ? ["20", "--rounds", "1"] : ["100", "--rounds", "5"]);
  log(`  ${JSON.stringify(results.bulk)}`);
}
if (!args.has("--no-load")) await runLoad(results, { quick: QUICK, live: !args.has("--no-live") }, log);
if (!QUICK && !args.has("--no-page")) {
  log(`runs page: next build + next start on a copy of the app, ${biggest.toLocaleString("en")} backlog…`);
  results.page = await child("page.ts", [built.get(`ours-sqlite:${biggest}`)!.url, v.resourceId]);
  log(`  ${JSON.stringify(results.page)}`);
}

if (!args.has("--no-insights")) {
  log(`insights: a month of decisions (${QUICK ? "10,000" : "1,000,000"}) on SQLite and PostgreSQL, every panel timed…`);
  results.insights = await child("insights.ts", ["--json", `--decisions=${QUICK ? 10_000 : 1_000_000}`], {}, 7_200_000);
  for (const line of (results.insights as { lines?: string[] }).lines ?? [JSON.stringify(results.insights)]) log(`  ${line}`);
}
if (!QUICK && !args.has("--no-million")) {
  // Last, so that its 17 GB database does not crowd the page cache the other measurements use.
  log("1M: PostgreSQL at 10k, 100k and 1M waiting runs generated in SQL (bench/million.ts)…");
  results.million = (await child("million.ts", ["--json"], {}, 7_200_000)) as BenchResults["million"];
}
process.exit(writeReport(results, { QUICK, OUR_SIZES, MASTRA_SIZES, CAP_MS, started }) ? 1 : 0);
