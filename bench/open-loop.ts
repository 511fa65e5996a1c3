/**
 * `npm run bench:open-loop -- [--db postgres|sqlite] [--instances 2] [--backlog 100000] [--rates 50,100,200]
 *   [--seconds 20] [--saturation-seconds 15] [--quick] [--json] [--server-node-options "<flags>"] [--profile <dir>] [--only "<kind>"]
 *   [--live-streams 1000] [--conditional]`
 *
 * Load measured the way operators read it (issue 27): latency at a fixed arrival rate, and the most
 * an instance serves. A throwaway copy of a backlog of suspended runs (PostgreSQL: generated in SQL
 * by bench/sql-backlog.ts once and cloned per run as a template database; SQLite: loaded once by
 * bench/stores.ts and copied), a few signed-in reviewers, `--instances` production servers
 * (server.mjs, tests/helpers/console-server.ts) on that one database, then:
 *
 *  1. Open loop, per rate: requests leave at evenly spaced times whatever the servers answer, round
 *     robin over the instances, each on a socket of its own if the earlier ones are still busy; a
 *     request's latency runs from the time it was due to leave until its last byte, so a client that
 *     fell behind (or a server that queued it) shows up in the figure rather than lowering the rate.
 *     The mix (bench/read-mix.ts): the queue page and GET /api/queue with filters (resource, agent, risk),
 *     run pages, and DECISIONS_PER_SECOND approvals through POST /api/decisions on calls of the
 *     backlog that wait for approval. The same rates are then sent to the floor:
 *     GET /api/health/session, which reads the session and answers a constant.
 *  2. Saturation per instance: autocannon (a closed loop of SATURATION_CONNECTIONS connections,
 *     which is what "as much as it serves" means) on one instance, for the GET mix and for the floor
 *     (`--saturation-seconds 0`: none).
 *
 * Issue 45's load, replaced: `--live-streams N` holds N idle reviewer streams (GET /api/events/stream,
 * bench/live-streams.ts) round robin over the instances through every rate, and `--conditional` has
 * each reader send GET /api/queue with If-None-Match, the ETag it last got for that query (304s counted).
 *
 * Why not autocannon's own rate (`overallRate`) for step 1: it is a cap per connection per second
 * (bursts at each second; a connection waiting for an answer sends nothing), not an open loop (bench/README.md).
 *
 * Prints a table and target lines; with --json, one JSON line at the end (bench/run.ts reads it).
 * --profile <dir>: each server samples its CPU for the whole run (bench/cpu-profile.cjs) and writes
 * <dir>/<pid>.cpuprofile when stopped; `npx tsx bench/profile-summary.ts <dir>/*.cpuprofile` says where it went.
 * --quick: a small backlog and short phases, what bench:quick runs.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startConsoleServer, type ConsoleServer } from "../tests/helpers/console-server.ts";
import { DECISIONS_PER_SECOND, drained, openLoop, percentiles, saturation, SATURATION_CONNECTIONS, send } from "./arrivals.ts";
import { BENCH_DIR } from "./backlog.ts";
import { holdStreams, type HeldStreams } from "./live-streams.ts";
import { backlogDatabase } from "./load-backlog.ts";
import { decider, floor, mixInputs, picker, readMix, reviewerCookies, warmUp } from "./read-mix.ts";

/* ---------- options ---------- */

const QUICK = process.argv.includes("--quick");
const asJson = process.argv.includes("--json");
function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}
const db = option("db", "postgres");
if (db !== "sqlite" && db !== "postgres") throw new Error("--db must be sqlite or postgres");
const instances = Number(option("instances", db === "postgres" ? "2" : "1"));
const backlog = Number(option("backlog", QUICK ? "5000" : "100000"));
// Quick: a rate two instances serve with room to spare on a busy 2-core CI machine, so only a severe regression fails it.
const rates = option("rates", QUICK ? "20" : "50,100,200")
  .split(",")
  .map(Number);
const seconds = Number(option("seconds", QUICK ? "5" : "20"));
const saturationSeconds = Number(option("saturation-seconds", QUICK ? "3" : "15"));
// Quick keeps the whole load (both databases, setup included) near a minute of CI.
const WARM_UPS = QUICK ? 2 : 5;
const SERVICE_SAMPLES = QUICK ? 5 : 10;
const serverNodeOptions = option("server-node-options", "");
const profileDir = option("profile", "");
/** --only "run page": that kind alone (to profile it). */
const onlyKind = option("only", "");
/** Issue 45's load, replaced: idle live streams held across the instances, and readers that send If-None-Match. */
const liveStreams = Number(option("live-streams", "0"));
const conditional = process.argv.includes("--conditional");
for (const [name, value, max] of [
  ["instances", instances, 4],
  ["backlog", backlog, 1_000_000],
  ["seconds", seconds, 300],
  ...rates.map((rate) => ["rates", rate, 2_000] as const),
] as const) {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`--${name} must be an integer from 1 to ${max}`);
}
for (const [name, value, max] of [
  ["saturation-seconds", saturationSeconds, 300],
  ["live-streams", liveStreams, 10_000],
] as const) {
  if (!Number.isInteger(value) || value < 0 || value > max) throw new Error(`--${name} must be an integer from 0 to ${max}`);
}
const log = (line: string) => (asJson ? process.stderr : process.stdout).write(`${line}\n`);

/* ---------- the run ---------- */

const started = performance.now();
const loadAverageAtStart = os.loadavg().map((x) => Math.round(x * 10) / 10);
log(
  `open loop: ${db}, ${instances} instance(s), backlog ${backlog.toLocaleString("en")}, rates ${rates.join("/")} req/s for ${seconds} s each, saturation ${saturationSeconds} s${liveStreams ? `, ${liveStreams} live streams held` : ""}${conditional ? ", conditional reads" : ""}; ${os.cpus().length} CPUs, load average ${loadAverageAtStart.join(" ")}`,
);
const database = await backlogDatabase(db, backlog, log);
const servers: ConsoleServer[] = [];
let streams: HeldStreams | undefined;
// Stopped by hand (Ctrl-C, a parent's kill): the servers run in process groups of their own and the
// database is a copy, so neither would go with this process.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all(servers.map((server) => server.stop()))
      .then(() => database.drop())
      .finally(() => process.exit(1));
  });
}
try {
  const cookies = await reviewerCookies(database.url);
  const { runIds, approvable } = await mixInputs(database.url, DECISIONS_PER_SECOND * seconds * (rates.length + 1) + 20);
  const nodeOptions = [serverNodeOptions, profileDir ? `--require ${path.join(BENCH_DIR, "cpu-profile.cjs")}` : ""]
    .filter(Boolean)
    .join(" ");
  const env: Record<string, string> = {
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
    ...(profileDir ? { CPU_PROFILE_DIR: path.resolve(profileDir) } : {}),
    // Each reader's share of the streams on one instance, whatever the default (as bench/live.ts).
    ...(liveStreams ? { LIVE_STREAMS_PER_USER: String(liveStreams + 10) } : {}),
  };
  for (let i = 0; i < instances; i++) servers.push(await startConsoleServer(database.url, env));
  log(
    `servers: ${servers.map((s) => s.url).join(", ")}; ${runIds.length} run pages, ${approvable.length} calls to approve; setup took ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const mix = readMix(runIds, onlyKind);
  const nextRead = picker(mix);
  const decide = decider(approvable);
  await warmUp(servers, cookies[0]!, mix, decide, WARM_UPS, log);

  // What each kind costs alone, on an idle instance: a few in a row after the warm-up, the median.
  const serviceTimeMs: Record<string, number> = {};
  {
    const quiet = new http.Agent({ keepAlive: true });
    for (const [, kind, pathOf] of [...mix, [0, "floor", () => floor().path] as const]) {
      const samples: number[] = [];
      for (let i = 0; i < SERVICE_SAMPLES; i++)
        samples.push((await send(servers[0]!, quiet, cookies[0]!, { kind, method: "GET", path: pathOf() }, performance.now())).latencyMs);
      serviceTimeMs[kind] = percentiles(samples).p50;
    }
    quiet.destroy();
    log(
      `one request at a time on an idle instance (median of ${SERVICE_SAMPLES}, ms): ${Object.entries(serviceTimeMs)
        .map(([kind, ms]) => `${kind} ${ms}`)
        .join(", ")}`,
    );
  }

  // Saturation of one instance, first: the GET mix (a fixed shuffled list every connection walks) and
  // the floor. Before the open loop, since a rate beyond what the servers serve leaves them working
  // off abandoned requests for minutes (nothing cancels them), which no later phase should inherit.
  // --saturation-seconds 0: none (the live variant measures the rates with streams held, not the maximum).
  const readList = Array.from({ length: 500 }, nextRead);
  const saturated = saturationSeconds
    ? {
        mix: await saturation(servers[0]!, cookies[0]!, readList, saturationSeconds),
        floor: await saturation(servers[0]!, cookies[0]!, [floor()], saturationSeconds),
      }
    : undefined;
  if (saturated)
    log(
      `saturation of one instance (autocannon, ${SATURATION_CONNECTIONS} connections, ${saturationSeconds} s): mix ${saturated.mix.requestsPerSecond} req/s (p99 ${saturated.mix.latencyMs.p99} ms, non-2xx ${saturated.mix.non2xx}, errors ${saturated.mix.errors}), floor ${saturated.floor.requestsPerSecond} req/s (p99 ${saturated.floor.latencyMs.p99} ms); ratio ${(saturated.mix.requestsPerSecond / saturated.floor.requestsPerSecond).toFixed(2)}`,
    );
  // --live-streams: idle reviewer streams held across the instances through every phase.
  streams = liveStreams ? await holdStreams(servers, cookies, liveStreams) : undefined;
  if (streams)
    log(
      `live streams held: ${streams.opened} of ${liveStreams}${Object.keys(streams.refused).length ? `, refused ${JSON.stringify(streams.refused)}` : ""}`,
    );
  type Phase = { target: "mix" | "floor"; loadAverage: number[]; drainSeconds: number; streamsOpen?: number };
  const phases: Array<Phase & Awaited<ReturnType<typeof openLoop>>> = [];
  for (const rate of rates) {
    // The floor first: the mix at a rate the servers cannot serve leaves them busy long after.
    for (const target of ["floor", "mix"] as const) {
      const drainSeconds = await drained(servers, cookies[0]!);
      if (drainSeconds > 1) log(`      (waited ${drainSeconds} s for the servers to answer the floor promptly again)`);
      const result = await openLoop(
        seconds,
        servers,
        cookies,
        rate,
        target === "mix" ? nextRead : floor,
        target === "mix" ? decide : undefined,
        { conditional },
      );
      const loadAverage = os.loadavg().map((x) => Math.round(x * 10) / 10);
      phases.push({ target, loadAverage, drainSeconds, ...(streams ? { streamsOpen: streams.stillOpen() } : {}), ...result });
      log(
        `${String(rate).padStart(4)} req/s ${target.padEnd(5)}: p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms; answered ${result.achievedRate}/s${result.rateReached ? "" : " (SHORT of the rate)"}, errors ${result.errors}/${result.sent}; client sent late by p99 ${result.sendLagMs.p99} ms; load average ${loadAverage[0]}`,
      );
      if (result.queueReads?.sent)
        log(
          `      GET /api/queue: ${result.queueReads.sent} sent, ${result.queueReads.withEtag} with If-None-Match, ${result.queueReads.notModified} answered 304${streams ? `; streams still open ${streams.stillOpen()}` : ""}`,
        );
      if (target === "mix")
        for (const [kind, s] of Object.entries(result.byKind))
          log(`      ${kind.padEnd(20)} n=${String(s.n).padStart(5)}  p50 ${s.p50}  p95 ${s.p95}  p99 ${s.p99}`);
      const failures = Object.entries(result.statuses).filter(([key]) => !/ [23]\d\d$/.test(key));
      if (failures.length) log(`      not answered: ${failures.map(([key, n]) => `${key} ×${n}`).join(", ")}`);
      for (const text of result.serverErrors) log(`      failed: ${text}`);
    }
  }

  // A server error is ours to explain: what the servers logged about it.
  if (phases.some((p) => Object.keys(p.statuses).some((key) => / 5\d\d$/.test(key)))) {
    for (const server of servers) {
      const errors = server
        .output()
        .split("\n")
        .filter((line) => /error/i.test(line));
      if (errors.length) log(`${server.url} logged ${errors.length} error lines; the last:\n${errors.slice(-6).join("\n")}`);
    }
  }

  const result = {
    db,
    instances,
    backlog,
    rates,
    seconds,
    saturationSeconds,
    quick: QUICK,
    decisionsPerSecond: DECISIONS_PER_SECOND,
    mix: mix.map(([weight, kind]) => ({ weight, kind })),
    cpus: os.cpus().length,
    loadAverageAtStart,
    loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 10) / 10),
    phases,
    serviceTimeMs,
    ...(saturated ? { saturation: { ...saturated, ratio: saturated.mix.requestsPerSecond / saturated.floor.requestsPerSecond } } : {}),
    /** --live-streams: idle streams asked for and let in; --conditional: GET /api/queue sent If-None-Match. */
    liveStreams: streams ? { asked: liveStreams, opened: streams.opened, refused: streams.refused } : undefined,
    conditional,
    seconds_total: Math.round((performance.now() - started) / 1000),
  };
  if (asJson) console.log(JSON.stringify(result));
} finally {
  streams?.close();
  for (const server of servers) await server.stop();
  await database.drop();
}
process.exit(0);
