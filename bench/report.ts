/**
 * The benchmark's report: the side-by-side table, the targets met or not, and the files
 * bench/results[.quick].{json,md}. Returns whether a quick run found a clear regression.
 */
import { auditChainTargets } from "./audit-report.ts";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BENCH_DIR } from "./backlog.ts";
import { millionReport } from "./million-report.ts";
import { CASES, PER_PAGE, type BenchResults, type MastraResult, type OurResult } from "./cases.ts";
import type { Stats } from "./timing.ts";
import { bulkTargets, decisionTarget, historyTargets, listingTargets, tokenFloorTargets } from "./targets.ts";
import { liveReport } from "./live-report.ts";
import { loadReport, type OpenLoopResult } from "./load-report.ts";
import { threadsReport, THREADS_PER_PAGE } from "./threads.ts";
import { writePathReport } from "./write-path.ts";
import { CALLS_PER_THREAD } from "../lib/runs/validations.ts";

export interface ReportSettings {
  QUICK: boolean;
  OUR_SIZES: number[];
  MASTRA_SIZES: Record<"libsql" | "pg", number[]>;
  CAP_MS: number;
  started: number;
}

export function writeReport(results: BenchResults, { QUICK, OUR_SIZES, MASTRA_SIZES, CAP_MS, started }: ReportSettings): boolean {
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
  const large = OUR_SIZES[1]!;
  results.targets.push(...listingTargets(results, { QUICK, OUR_SIZES, CAP_MS }));
  for (const [engine, name] of [
    ["sqlite", "SQLite"],
    ["pg", "PostgreSQL"],
  ] as const) {
    const opened = results.context[engine]?.[large];
    if (opened) {
      t(
        `opening a call with its context at ${large.toLocaleString("en")} (${name}): median < 50 ms${QUICK ? " (quick: the smaller backlog)" : ""}`,
        `${opened.stats.median.toFixed(2)} ms (p95 ${opened.stats.p95.toFixed(2)} ms, ${opened.calls} calls)`,
        opened.stats.median < 50,
      );
    }
  }
  for (const [engine, name] of [
    ["sqlite", "SQLite"],
    ["pg", "PostgreSQL"],
  ] as const) {
    const rules = results.rules[engine]?.[large];
    if (!rules) continue;
    const backlog = `${large.toLocaleString("en")}${QUICK ? " (quick: the smaller backlog)" : ""}`;
    t(
      `100 rules for each newly waiting call at ${backlog} (${name}): median < 1 ms per call`,
      `${(rules.evaluation.median * 1000).toFixed(1)} µs (p95 ${(rules.evaluation.p95 * 1000).toFixed(1)} µs, ${rules.calls} calls, ${
        rules.matchedByHundred === 0
          ? "none matched: all 100 checked"
          : `${rules.matchedByHundred} calls matched a rule, so not all 100 were checked for them`
      })`,
      rules.evaluation.median < 1 && rules.matchedByHundred === 0,
    );
    t(
      `a rule's dry run over every waiting call at ${backlog} (${name}): median < 2 s`,
      `${rules.dryRun.median.toFixed(0)} ms (p95 ${rules.dryRun.p95.toFixed(0)} ms, ${rules.waiting.toLocaleString("en")} calls)`,
      rules.dryRun.median < 2_000,
    );
  }
  results.targets.push(...historyTargets(results.history, QUICK));
  const mem = results.memory as Record<string, { peakRssMb?: number }>;
  for (const engine of ["sqlite", "pg"]) {
    const peak = mem?.[engine]?.peakRssMb;
    if (peak !== undefined) t(`peak RSS listing ${large.toLocaleString("en")} (${engine}) < 200 MB`, `${peak.toFixed(0)} MB`, peak < 200);
  }
  const page = results.page as
    | {
        renderFirst?: Stats;
        renderFiltered?: Stats;
        clientJs?: { bytes: number; gzip: number };
        htmlBytes?: number;
        htmlGzip?: number;
        withoutExcerpts?: { runs: number; render: Stats; withRender?: Stats; htmlBytes: number; htmlGzip: number };
      }
    | undefined;
  if (page?.renderFirst) {
    t(
      `runs page at ${large.toLocaleString("en")}: server render median < 150 ms (first page)`,
      `${page.renderFirst.median.toFixed(1)} ms`,
      page.renderFirst.median < 150,
    );
    t(
      `runs page at ${large.toLocaleString("en")}: server render median < 150 ms (filtered)`,
      `${page.renderFiltered!.median.toFixed(1)} ms`,
      page.renderFiltered!.median < 150,
    );
    const bare = page.withoutExcerpts;
    if (bare && page.htmlGzip !== undefined && page.htmlBytes !== undefined) {
      // Rounds of each in turn (bench/page.ts); an older result has only the first page's own timing.
      const withExcerpts = bare.withRender ?? page.renderFirst;
      const timeRatio = withExcerpts.median / bare.render.median;
      t(
        "runs page at 100k: server render with request excerpts < 1.1x the same page without them",
        `${timeRatio.toFixed(2)}x (${withExcerpts.median.toFixed(1)} vs ${bare.render.median.toFixed(1)} ms, ${bare.runs} runs)`,
        timeRatio < 1.1,
      );
      const growth = page.htmlGzip / bare.htmlGzip - 1;
      t(
        "runs page at 100k: request excerpts add < 15% to the first page's HTML, gzip (their own text, one line per call)",
        `+${(100 * growth).toFixed(1)}% gzip (${(bare.htmlGzip / 1024).toFixed(0)} → ${(page.htmlGzip / 1024).toFixed(0)} kB; raw ${(bare.htmlBytes / 1024).toFixed(0)} → ${(page.htmlBytes / 1024).toFixed(0)} kB)`,
        growth < 0.15,
      );
    }
    t(
      "runs page client JS < 250 kB gzip (the scripts a browser that runs modules loads; noModule polyfills not counted)",
      `${(page.clientJs!.gzip / 1024).toFixed(0)} kB gzip (${(page.clientJs!.bytes / 1024).toFixed(0)} kB raw)`,
      page.clientJs!.gzip < 250 * 1024,
    );
  }
  const decision = results.decision as { ratio?: number; decide?: Stats; bare?: Stats } | undefined;
  // The line names the threshold it checked: quick mode's few samples on a busy machine get a looser one.
  if (decision?.ratio)
    results.targets.push(decisionTarget({ ratio: decision.ratio, decide: decision.decide!, bare: decision.bare! }, QUICK));
  const remote = results.remoteDecision as { ratio?: number; embedded?: Stats; remote?: Stats } | undefined;
  if (remote?.ratio)
    t(
      "a decision in remote mode (example Mastra server over HTTP) < 2x embedded (median)",
      `${remote.ratio.toFixed(2)}x (${remote.remote!.median.toFixed(1)} vs ${remote.embedded!.median.toFixed(1)} ms)`,
      remote.ratio < 2,
    );
  results.targets.push(...bulkTargets(results.bulk));
  results.targets.push(...auditChainTargets(results.auditChain, QUICK));
  if (results.mismatches.length) t("totals agree with Mastra's", results.mismatches.join("; "), false);
  const threads = threadsReport(results.threads, OUR_SIZES, QUICK);
  results.targets.push(...threads.targets);
  const writes = results.writePath ? writePathReport(results.writePath) : undefined;
  if (writes) results.targets.push(...writes.targets);
  const load = Object.keys(results.load).length ? loadReport(results.load, QUICK) : undefined;
  if (load) results.targets.push(...load.targets);
  results.targets.push(...tokenFloorTargets(results.tokenFloor, QUICK));
  // The live queue is measured by full runs only: a quick run has no lines for it.
  const live = QUICK ? undefined : liveReport(results.live, results.liveLoad);
  if (live) results.targets.push(...live.targets);
  const million = results.million?.results ? millionReport(results.million) : undefined;
  if (million) results.targets.push(...million.targets);
  else if (results.million?.error) t("the 1M measurement (bench/million.ts) ran", results.million.error, false);

  results.seconds = Math.round((performance.now() - started) / 1000);
  results.machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 10) / 10);
  const targetTable = [
    "| target | measured | met |",
    "| --- | --- | --- |",
    ...results.targets.map((x) => `| ${x.target} | ${x.value} | ${x.met ? "yes" : "**no**"} |`),
  ].join("\n");

  console.log(`\n${table}\n\n${threads.table}\n\n${load ? `${load.table}\n\n` : ""}${live ? `${live.table}\n\n` : ""}${targetTable}\n`);
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
            `${Number(n).toLocaleString("en")} suspended runs (+${b.completed.toLocaleString("en")} completed, ${b.threads.toLocaleString("en")} threads, ${b.resources.toLocaleString("en")} resources)`,
        )
        .join(
          "; ",
        )}. perPage ${PER_PAGE}. Times in ms unless marked; Mastra calls capped at ${CAP_MS / 1000} s. "ours (refunds)" is our listing with agentId "refunds", the exact equivalent of Mastra's \`refunds.listSuspendedRuns()\`; "faster" compares the two on the same engine. "bare SQL" is the same page + COUNT + parse as prepared statements straight on better-sqlite3 (bench/bare-sqlite.ts): the floor of any SQLite listing on this machine.`,
      "",
      table,
      "",
      `## Pages of threads (the review queue)`,
      "",
      `The queue's page (lib/runs/list-threads.ts): ${THREADS_PER_PAGE} whole threads with up to ${CALLS_PER_THREAD} calls each, totals of threads and calls included, overdue against now − 60 min (every backlog run is older). bench/threads.ts.`,
      "",
      threads.table,
      "",
      ...(writes ? ["## Snapshot writes (what every agent step pays)", "", writes.table, ""] : []),
      ...(million
        ? [
            "## A million waiting runs on PostgreSQL",
            "",
            `bench/million.ts: backlogs generated inside PostgreSQL (bench/sql-backlog.ts, the same templates and mix, +10% completed runs, summaries kept by the store's own triggers), every listing case and every page of threads with exact totals, and what a snapshot write costs there. Times in ms (median / p95).`,
            "",
            million.table,
            "",
          ]
        : []),
      ...(load
        ? [
            "## Load at fixed arrival rates, with its floor",
            "",
            `bench/open-loop.ts: requests leave at evenly spaced times (an open loop) whatever the servers answer, round robin over the instances on one database, latency from when each was due to its last byte. The mix: the queue page and \`GET /api/queue\` with resource, agent and risk filters, run pages, and ${(Object.values(results.load)[0] as OpenLoopResult | undefined)?.decisionsPerSecond ?? "a few"} approvals a second through \`POST /api/decisions\`; the floor is \`GET /api/health/session\` (reads the session, answers a constant) at the same rates. "client late" is how late the load generator itself sent (it shares the CPUs with the servers). Saturation is autocannon's closed loop on one instance.`,
            "",
            load.table,
            "",
          ]
        : []),
      ...(live
        ? [
            "## The live queue (issue 45)",
            "",
            `bench/live.ts and bench/open-loop.ts --live-streams 1000 --conditional; how they measure: bench/README.md.`,
            "",
            live.table,
            "",
          ]
        : []),
      targetTable,
      "",
    ].join("\n"),
  );
  const failed =
    QUICK &&
    results.targets.some(
      (x) =>
        !x.met &&
        !x.target.startsWith("approve") &&
        !x.target.startsWith("bulk") &&
        !x.target.startsWith("snapshot write") &&
        !x.target.startsWith("peak"),
    );
  return failed;
}
