/**
 * `npm run bench` / `npm run bench -- --quick` (also `npm run bench:quick`).
 *
 * Full: backlogs of 10,000 and 100,000 suspended runs in our store (SQLite, PostgreSQL) and in
 * Mastra's LibSQLStore and PostgresStore; our cross-agent listing and the real
 * `agent.listSuspendedRuns()` timed on each; the runs page rendered by `next start` at 100k; a
 * decision end to end vs bare Mastra; peak memory of a process listing 100k. Writes
 * bench/results.json and bench/results.md.
 * Quick (CI): 2,000 and 10,000 on our store, Mastra's LibSQLStore at 1,000 with a 10 s cap, the
 * decision and memory checks; no page build. Exits 1 only on a clear regression.
 *
 * Flags: --quick, --rebuild (drop cached stores first), --no-page, --no-mastra, --no-decision.
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { disconnectDb } from "../lib/db/client.ts";
import { listSuspendedRuns } from "../lib/runs/list-suspended-runs.ts";
import { BENCH_DIR, backlogShape, caseValues, loadTemplates } from "./backlog.ts";
import { bareSqliteListing, type BareOptions } from "./bare-sqlite.ts";
import { sqliteFilePath } from "../lib/db/database-url.ts";
import { buildStore, dropStore, type BuiltStore, type StoreKind } from "./stores.ts";
import { MastraWorker, measure, type Stats, type WorkerReply } from "./timing.ts";

const args = new Set(process.argv.slice(2));
const QUICK = args.has("--quick");
const OUR_SIZES = QUICK ? [2_000, 10_000] : [10_000, 100_000];
const MASTRA_SIZES: Record<"libsql" | "pg", number[]> = QUICK
  ? { libsql: [1_000], pg: [] }
  : { libsql: [10_000, 100_000], pg: [10_000, 100_000] };
const CAP_MS = QUICK ? 10_000 : 60_000;
const PER_PAGE = 50;
const started = performance.now();
const log = (line: string) => console.log(line);

/* ---------- the cases ---------- */

const v = caseValues();
interface Case {
  id: string;
  label: string;
  /** Our cross-agent listing (the console's query). */
  ours: Record<string, unknown>;
  /** Mastra's agent.listSuspendedRuns() on agent `refunds`; ours with agentId "refunds" is its exact equivalent. */
  mastra: Record<string, unknown>;
}
const page0 = { perPage: PER_PAGE, page: 0 };
const CASES: Case[] = [
  { id: "none", label: "no filter", ours: { ...page0 }, mastra: { ...page0 } },
  { id: "resource", label: "resourceId", ours: { resourceId: v.resourceId, ...page0 }, mastra: { resourceId: v.resourceId, ...page0 } },
  { id: "thread", label: "threadId", ours: { threadId: v.threadId, ...page0 }, mastra: { threadId: v.threadId, ...page0 } },
  { id: "agent", label: "agentId", ours: { agentId: v.agentId, ...page0 }, mastra: { ...page0 } },
  { id: "day", label: "one-day window", ours: { ...v.day, ...page0 }, mastra: { ...v.day, ...page0 } },
  { id: "deep", label: "page 500 of 50", ours: { perPage: PER_PAGE, page: 500 }, mastra: { perPage: PER_PAGE, page: 500 } },
];
const scoped = (c: Case) => ({ ...c.mastra, agentId: v.agentId });

/* ---------- results ---------- */

interface OurResult {
  stats: Stats;
  total: number;
  runs: number;
}
interface MastraResult {
  stats?: Stats;
  total?: number;
  timedOut?: boolean;
  error?: string;
  samples: number[];
  rssMb?: number;
}
const results = {
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memGb: Math.round(os.totalmem() / 1e9),
    node: process.version,
    loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 10) / 10),
    loadAvgAtEnd: [] as number[],
  },
  mode: QUICK ? "quick" : "full",
  capMs: CAP_MS,
  perPage: PER_PAGE,
  backlog: {} as Record<number, ReturnType<typeof backlogShape>>,
  stores: [] as BuiltStore[],
  cases: CASES.map(({ id, label, ours, mastra }) => ({ id, label, ours, mastra })),
  /** ours[engine][size][caseId] = cross-agent; oursScoped = agentId "refunds" (Mastra's equivalent) */
  ours: {} as Record<string, Record<number, Record<string, OurResult>>>,
  oursScoped: {} as Record<string, Record<number, Record<string, OurResult>>>,
  /** bareScoped[size][caseId]: Mastra's equivalent (agentId "refunds") as bare prepared statements on our SQLite store. */
  bareScoped: {} as Record<number, Record<string, OurResult>>,
  mastra: {} as Record<string, Record<number, Record<string, MastraResult>>>,
  mismatches: [] as string[],
  page: undefined as unknown,
  decision: undefined as unknown,
  memory: undefined as unknown,
  targets: [] as Array<{ target: string; value: string; met: boolean }>,
  seconds: 0,
};

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

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { n: sorted.length, median, p95: sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!, min: sorted[0]! };
}

/* ---------- decision, memory, page (children, so each has its own process and RSS) ---------- */

/**
 * A child that runs `script` under tsx, or (`compiled`) as JavaScript bundled by Vite first and run
 * by plain node, the way a production server runs our code: tsx's on-the-fly compiler alone adds
 * ~30 MB to a process's RSS, which would count against the memory target.
 */
async function child(
  script: string,
  childArgs: string[],
  env: Record<string, string> = {},
  timeoutMs = 600_000,
  { compiled = false } = {},
): Promise<unknown> {
  const command = compiled ? [await compileChild(script)] : ["--import", "tsx", path.join(BENCH_DIR, script)];
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...command, ...childArgs], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    proc.on("exit", (code) => {
      clearTimeout(timer);
      const line = out
        .trim()
        .split("\n")
        .reverse()
        .find((l) => l.startsWith("{"));
      try {
        resolve(line ? JSON.parse(line) : { error: `exit ${code}`, output: out.slice(-2000) });
      } catch {
        resolve({ error: `exit ${code}`, output: out.slice(-2000) });
      }
    });
  });
}

async function compileChild(script: string): Promise<string> {
  const { build } = await import("vite");
  const outDir = path.join(BENCH_DIR, "out", "compiled", path.basename(script, ".ts"));
  // Vite's build sets NODE_ENV=production in the calling process, which every later child would
  // inherit (the page check's account setup then demands a production auth secret).
  const env = process.env as Record<string, string | undefined>;
  const nodeEnv = env.NODE_ENV;
  await build({
    configFile: false,
    logLevel: "error",
    // Dependencies stay in node_modules (found from bench/out by node's usual lookup); only our
    // TypeScript is compiled.
    build: { ssr: path.join(BENCH_DIR, script), outDir, emptyOutDir: true, target: "node20", minify: false },
  });
  if (nodeEnv === undefined) delete env.NODE_ENV;
  else env.NODE_ENV = nodeEnv;
  return path.join(outDir, `${path.basename(script, ".ts")}.js`);
}

const biggest = OUR_SIZES.at(-1)!;
log(`memory: a process listing the ${biggest.toLocaleString("en")} backlog…`);
results.memory = {
  sqlite: await child("memory-child.ts", [built.get(`ours-sqlite:${biggest}`)!.url], {}, 600_000, { compiled: true }),
  pg: await child("memory-child.ts", [built.get(`ours-pg:${biggest}`)!.url], {}, 600_000, { compiled: true }),
};
log(`  ${JSON.stringify(results.memory)}`);
if (!args.has("--no-decision")) {
  log("decision: decide() vs bare agent.approveToolCall()…");
  results.decision = await child("decision.ts", [QUICK ? "8" : "20"]);
  log(`  ${JSON.stringify(results.decision)}`);
}
if (!QUICK && !args.has("--no-page")) {
  log(`runs page: next build + next start on a copy of the app, ${biggest.toLocaleString("en")} backlog…`);
  results.page = await child("page.ts", [built.get(`ours-sqlite:${biggest}`)!.url, v.resourceId]);
  log(`  ${JSON.stringify(results.page)}`);
}

/* ---------- report ---------- */

const ms = (s?: Stats) =>
  s ? (s.median < 10 ? s.median.toFixed(2) : s.median < 1000 ? s.median.toFixed(1) : `${(s.median / 1000).toFixed(1)} s`) : "–";
const msp = (s?: Stats) => (s ? `${ms(s)} / ${s.p95 < 10 ? s.p95.toFixed(2) : s.p95.toFixed(1)}` : "–");
const mastraCell = (m?: MastraResult) =>
  !m
    ? "–"
    : m.timedOut
      ? `> ${CAP_MS / 1000} s`
      : m.error
        ? "error"
        : m.stats!.median >= 1000
          ? `${(m.stats!.median / 1000).toFixed(1)} s`
          : `${m.stats!.median.toFixed(1)} ms`;
const ratio = (m: MastraResult | undefined, ours: OurResult | undefined) => {
  if (!m || !ours) return "–";
  const x = (m.timedOut ? CAP_MS : (m.stats?.median ?? NaN)) / ours.stats.median;
  return Number.isFinite(x) ? `${m.timedOut ? "> " : ""}${Math.round(x).toLocaleString("en")}x` : "–";
};
const growth = (engine: string, id: string) => {
  const [small, large] = OUR_SIZES;
  const a = results.ours[engine]?.[small!]?.[id];
  const b = results.ours[engine]?.[large!]?.[id];
  return a && b ? b.stats.median / a.stats.median : NaN;
};

const mastraSizes = [...new Set([...MASTRA_SIZES.libsql, ...MASTRA_SIZES.pg, ...OUR_SIZES])].sort((a, b) => a - b);
const header =
  "| case | backlog | total: all agents / refunds | ours SQLite med / p95 ms | growth | ours SQLite (refunds) | bare SQL (refunds) | Mastra LibSQLStore | faster | ours PG med / p95 ms | growth | ours PG (refunds) | Mastra PostgresStore | faster |";
const lines = [header, "|" + " --- |".repeat(14)];
for (const c of CASES) {
  for (const size of mastraSizes) {
    const o = (e: string) => results.ours[e]?.[size]?.[c.id];
    const s = (e: string) => results.oursScoped[e]?.[size]?.[c.id];
    const m = (st: string) => results.mastra[st]?.[size]?.[c.id];
    if (!o("sqlite") && !m("libsql")) continue;
    const isLarge = size === OUR_SIZES[1];
    const g = (e: string) => (isLarge ? `${growth(e, c.id).toFixed(2)}x` : "");
    const total = o("sqlite")
      ? `${o("sqlite")!.total.toLocaleString("en")} / ${s("sqlite")!.total.toLocaleString("en")}`
      : `– / ${m("libsql")?.total?.toLocaleString("en") ?? "?"}`;
    lines.push(
      `| ${c.label} | ${size.toLocaleString("en")} | ${total} | ${msp(o("sqlite")?.stats)} | ${g("sqlite")} | ${ms(s("sqlite")?.stats)} | ${ms(results.bareScoped[size]?.[c.id]?.stats)} | ${mastraCell(m("libsql"))} | ${ratio(m("libsql"), s("sqlite"))} | ${msp(o("pg")?.stats)} | ${g("pg")} | ${ms(s("pg")?.stats)} | ${mastraCell(m("pg"))} | ${ratio(m("pg"), s("pg"))} |`,
    );
  }
}
const table = lines.join("\n");

/* ---------- targets ---------- */

const t = (target: string, value: string, met: boolean) => results.targets.push({ target, value, met });
const [small, large] = OUR_SIZES as [number, number];
const worst = (engine: string, size: number) =>
  Math.max(...CASES.map((c) => results.ours[engine]?.[size]?.[c.id]?.stats.median ?? Infinity));
const worstGrowth = (engine: string) => Math.max(...CASES.map((c) => growth(engine, c.id)));
if (!QUICK) {
  t("ours at 100k, slowest case median < 10 ms (SQLite)", `${worst("sqlite", large).toFixed(2)} ms`, worst("sqlite", large) < 10);
  t("ours at 100k, slowest case median < 20 ms (PostgreSQL)", `${worst("pg", large).toFixed(2)} ms`, worst("pg", large) < 20);
  t("10k → 100k < 2x for every case (SQLite)", `${worstGrowth("sqlite").toFixed(2)}x`, worstGrowth("sqlite") < 2);
  t("10k → 100k < 2x for every case (PostgreSQL)", `${worstGrowth("pg").toFixed(2)}x`, worstGrowth("pg") < 2);
  const minRatio = Math.min(
    ...CASES.map((c) => {
      const m = results.mastra.libsql?.[10_000]?.[c.id];
      const o = results.oursScoped.sqlite?.[10_000]?.[c.id];
      return m && o ? (m.timedOut ? CAP_MS : (m.stats?.median ?? NaN)) / o.stats.median : NaN;
    }),
  );
  // What one indexed query costs on this machine bounds any ratio: report the same ratio for it.
  const bareMin = Math.min(
    ...CASES.map((c) => {
      const m = results.mastra.libsql?.[10_000]?.[c.id];
      const b = results.bareScoped[10_000]?.[c.id];
      return m && b ? (m.timedOut ? CAP_MS : (m.stats?.median ?? NaN)) / b.stats.median : NaN;
    }),
  );
  t(
    "vs Mastra on LibSQLStore at 10k: >= 1,000x on every case",
    `${Math.round(minRatio).toLocaleString("en")}x (smallest); bare prepared SQL for the same case: ${Math.round(bareMin).toLocaleString("en")}x`,
    minRatio >= 1000,
  );
} else {
  t(
    `ours at ${large.toLocaleString("en")}: slowest median < 50 ms (SQLite)`,
    `${worst("sqlite", large).toFixed(2)} ms`,
    worst("sqlite", large) < 50,
  );
  t(
    `ours at ${large.toLocaleString("en")}: slowest median < 50 ms (PostgreSQL)`,
    `${worst("pg", large).toFixed(2)} ms`,
    worst("pg", large) < 50,
  );
  // Growth only counts where the time is not noise (> 5 ms at the larger size). The deep page is
  // left out: page 500 lies past the end of both quick backlogs, so its index walk covers the whole
  // backlog at both sizes (it is bounded by the offset, which the full run checks at 10k → 100k).
  for (const engine of ["sqlite", "pg"]) {
    const scaled = CASES.filter((c) => c.id !== "deep");
    const bad = scaled.filter((c) => growth(engine, c.id) > 3 && (results.ours[engine]?.[large]?.[c.id]?.stats.median ?? 0) > 5);
    const worstScaled = Math.max(...scaled.map((c) => growth(engine, c.id)));
    t(
      `${small.toLocaleString("en")} → ${large.toLocaleString("en")} growth <= 3x where > 5 ms, deep page aside (${engine})`,
      `${worstScaled.toFixed(2)}x (worst)`,
      bad.length === 0,
    );
  }
}
const mem = results.memory as Record<string, { peakRssMb?: number }>;
for (const engine of ["sqlite", "pg"]) {
  const peak = mem?.[engine]?.peakRssMb;
  if (peak !== undefined) t(`peak RSS listing ${large.toLocaleString("en")} (${engine}) < 200 MB`, `${peak.toFixed(0)} MB`, peak < 200);
}
const page = results.page as { renderFirst?: Stats; renderFiltered?: Stats; clientJs?: { bytes: number; gzip: number } } | undefined;
if (page?.renderFirst) {
  t(
    "runs page at 100k: server render median < 150 ms (first page)",
    `${page.renderFirst.median.toFixed(1)} ms`,
    page.renderFirst.median < 150,
  );
  t(
    "runs page at 100k: server render median < 150 ms (filtered)",
    `${page.renderFiltered!.median.toFixed(1)} ms`,
    page.renderFiltered!.median < 150,
  );
  t(
    "runs page client JS < 250 kB gzip",
    `${(page.clientJs!.gzip / 1024).toFixed(0)} kB gzip (${(page.clientJs!.bytes / 1024).toFixed(0)} kB raw)`,
    page.clientJs!.gzip < 250 * 1024,
  );
}
const decision = results.decision as { ratio?: number; decide?: Stats; bare?: Stats } | undefined;
if (decision?.ratio)
  t(
    "approve overhead over bare Mastra < 1.3x",
    `${decision.ratio.toFixed(2)}x (${decision.decide!.median.toFixed(1)} vs ${decision.bare!.median.toFixed(1)} ms)`,
    decision.ratio < 1.3 || (QUICK && decision.ratio < 2),
  );
if (results.mismatches.length) t("totals agree with Mastra's", results.mismatches.join("; "), false);

results.seconds = Math.round((performance.now() - started) / 1000);
results.machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 10) / 10);
const targetTable = [
  "| target | measured | met |",
  "| --- | --- | --- |",
  ...results.targets.map((x) => `| ${x.target} | ${x.value} | ${x.met ? "yes" : "**no**"} |`),
].join("\n");

console.log(`\n${table}\n\n${targetTable}\n`);
console.log(`(${results.mode} run, ${results.seconds} s)`);

const git = (() => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: path.dirname(BENCH_DIR) })
      .toString()
      .trim();
  } catch {
    return "?";
  }
})();
const suffix = QUICK ? ".quick" : "";
writeFileSync(path.join(BENCH_DIR, `results${suffix}.json`), JSON.stringify({ ...results, git, at: new Date().toISOString() }, null, 2));
writeFileSync(
  path.join(BENCH_DIR, `results${suffix}.md`),
  [
    `# Benchmark: listing suspended runs (${results.mode} run)`,
    "",
    `Generated by \`npm run bench${QUICK ? " -- --quick" : ""}\` at commit ${git} on ${results.machine.cpus} × ${results.machine.cpuModel}, ${results.machine.memGb} GB, Node ${results.machine.node}; ${results.seconds} s; load average (1/5/15 min) ${results.machine.loadAvgAtStart.join("/")} at the start, ${results.machine.loadAvgAtEnd.join("/")} at the end (other work on the machine shows up as noise). Raw numbers: \`bench/results${suffix}.json\`. How it is measured: \`bench/README.md\`.`,
    "",
    `Backlogs: ${Object.entries(results.backlog)
      .map(
        ([n, b]) =>
          `${Number(n).toLocaleString("en")} suspended runs (+${b.completed.toLocaleString("en")} completed, ${b.rows.toLocaleString("en")} snapshot rows, ${b.threads.toLocaleString("en")} threads)`,
      )
      .join(
        "; ",
      )}. perPage ${PER_PAGE}. Times in ms unless marked; Mastra calls capped at ${CAP_MS / 1000} s. "ours (refunds)" is our listing with agentId "refunds", the exact equivalent of Mastra's \`refunds.listSuspendedRuns()\`; "faster" compares the two on the same engine. "bare SQL" is the same page + COUNT + parse as prepared statements straight on better-sqlite3 (bench/bare-sqlite.ts): the floor of any SQLite listing on this machine.`,
    "",
    table,
    "",
    targetTable,
    "",
  ].join("\n"),
);
const failed = QUICK && results.targets.some((x) => !x.met && !x.target.startsWith("approve") && !x.target.startsWith("peak"));
process.exit(failed ? 1 : 0);
