/**
 * `npm run bench:open-loop -- [--db postgres|sqlite] [--instances 2] [--backlog 100000] [--rates 50,100,200]
 *   [--seconds 20] [--saturation-seconds 15] [--quick] [--json] [--server-node-options "<flags>"] [--profile <dir>] [--only "<kind>"]`
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
 *     The mix (MIX below): the queue page and GET /api/queue with filters (resource, agent, risk),
 *     run pages, and DECISIONS_PER_SECOND approvals through POST /api/decisions on calls of the
 *     backlog that wait for approval. The same rates are then sent to the floor:
 *     GET /api/health/session, which reads the session and answers a constant.
 *  2. Saturation per instance: autocannon (a closed loop of SATURATION_CONNECTIONS connections,
 *     which is what "as much as it serves" means) on one instance, for the GET mix and for the floor.
 *
 * Why not autocannon's own rate (`overallRate`) for step 1: it is a cap per connection per second
 * (bursts at each second; a connection waiting for an answer sends nothing), not an open loop (bench/README.md).
 *
 * Prints a table and target lines; with --json, one JSON line at the end (bench/run.ts reads it).
 * --profile <dir>: each server samples its CPU for the whole run (bench/cpu-profile.cjs) and writes
 * <dir>/<pid>.cpuprofile when stopped; `npx tsx bench/profile-summary.ts <dir>/*.cpuprofile` says where it went.
 * --quick: a small backlog and short phases, for CI (bench:quick).
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../tests/helpers/console-server.ts";
import {
  DECISIONS_PER_SECOND,
  drained,
  openLoop,
  percentiles,
  saturation,
  SATURATION_CONNECTIONS,
  send,
  type Request,
} from "./arrivals.ts";
import { BENCH_DIR, resourceName } from "./backlog.ts";
import { backlogDatabase } from "./load-backlog.ts";

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
for (const [name, value, max] of [
  ["instances", instances, 4],
  ["backlog", backlog, 1_000_000],
  ["seconds", seconds, 300],
  ["saturation-seconds", saturationSeconds, 300],
  ...rates.map((rate) => ["rates", rate, 2_000] as const),
] as const) {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`--${name} must be an integer from 1 to ${max}`);
}
const REVIEWERS = 5;
const log = (line: string) => (asJson ? process.stderr : process.stdout).write(`${line}\n`);

/* ---------- the mix ---------- */

interface Approvable {
  runId: string;
  toolCallId: string;
  agentId: string;
}

/** What reviewers read, by weight (decisions are sent besides, at DECISIONS_PER_SECOND). */
function readMix(runIds: string[]): Array<[weight: number, kind: string, path: () => string]> {
  const anyOf = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  const resource = () => resourceName(Math.floor(Math.random() * 50));
  const mix: ReturnType<typeof readMix> = [
    [15, "queue page", () => anyOf(["/", "/?sort=oldest", `/?resourceId=${resource()}`])],
    [15, "api queue", () => "/api/queue?perPage=20"],
    [10, "api queue resource", () => `/api/queue?resourceId=${resource()}`],
    [10, "api queue agent", () => `/api/queue?agentId=${anyOf(["refunds", "shipping", "outreach"])}&sort=oldest`],
    [10, "api queue risk", () => "/api/queue?risk=high,critical&sort=risk"],
    [40, "run page", () => `/runs/${encodeURIComponent(anyOf(runIds))}`],
  ];
  if (onlyKind && !mix.some(([, kind]) => kind === onlyKind)) throw new Error(`--only: no kind of request named "${onlyKind}"`);
  return mix.filter(([, kind]) => !onlyKind || kind === onlyKind);
}
function picker(mix: ReturnType<typeof readMix>): () => Request {
  const total = mix.reduce((sum, [weight]) => sum + weight, 0);
  return () => {
    let r = Math.random() * total;
    for (const [weight, kind, pathOf] of mix) {
      if ((r -= weight) < 0) return { kind, method: "GET", path: pathOf() };
    }
    throw new Error("unreachable");
  };
}

/* ---------- the run ---------- */

const started = performance.now();
const loadAverageAtStart = os.loadavg().map((x) => Math.round(x * 10) / 10);
log(
  `open loop: ${db}, ${instances} instance(s), backlog ${backlog.toLocaleString("en")}, rates ${rates.join("/")} req/s for ${seconds} s each, saturation ${saturationSeconds} s; ${os.cpus().length} CPUs, load average ${loadAverageAtStart.join(" ")}`,
);
const database = await backlogDatabase(db, backlog, log);
const servers: ConsoleServer[] = [];
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
  const reviewers = await Promise.all(
    Array.from({ length: REVIEWERS }, (_, i) => createTestAccount(database.url, "reviewer", `Reviewer ${i + 1}`)),
  );
  const cookies = await Promise.all(reviewers.map((reviewer) => sessionCookie(database.url, reviewer)));
  const prisma = await getDb(database.url);
  const runIds = (
    await prisma.$queryRawUnsafe<Array<{ run_id: string }>>(
      `SELECT run_id FROM workflow_snapshots WHERE status = 'suspended' AND agent_id IS NOT NULL ORDER BY run_id LIMIT 2000`,
    )
  ).map((row) => row.run_id);
  // Calls that wait for an approval (not for data): what the queue's Approve button decides. Not the
  // backlog's share of runs of agents no console serves any more (bench/backlog.ts: "legacy-…"),
  // which the console rightly refuses (502 unknown_agent).
  const approvable: Approvable[] = (
    await prisma.$queryRawUnsafe<Array<{ run_id: string; tool_call_id: string; agent_id: string }>>(
      `SELECT run_id, tool_call_id, agent_id FROM pending_tool_calls WHERE call LIKE '%"requiresApproval":true%' AND agent_id NOT LIKE 'legacy-%' ORDER BY run_id DESC LIMIT ${
        DECISIONS_PER_SECOND * seconds * (rates.length + 1) + 20
      }`,
    )
  ).map((row) => ({ runId: row.run_id, toolCallId: row.tool_call_id, agentId: row.agent_id }));
  await disconnectDb(database.url); // the servers are the only ones using the database from here on
  const nodeOptions = [serverNodeOptions, profileDir ? `--require ${path.join(BENCH_DIR, "cpu-profile.cjs")}` : ""]
    .filter(Boolean)
    .join(" ");
  const env: Record<string, string> = {
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
    ...(profileDir ? { CPU_PROFILE_DIR: path.resolve(profileDir) } : {}),
  };
  for (let i = 0; i < instances; i++) servers.push(await startConsoleServer(database.url, env));
  log(
    `servers: ${servers.map((s) => s.url).join(", ")}; ${runIds.length} run pages, ${approvable.length} calls to approve; setup took ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const mix = readMix(runIds);
  const nextRead = picker(mix);
  const floor = (): Request => ({ kind: "floor", method: "GET", path: "/api/health/session" });
  const decide = (): Request | undefined => {
    const call = approvable.pop();
    return (
      call && {
        kind: "decision",
        method: "POST",
        path: "/api/decisions",
        body: JSON.stringify({ action: "approve", runId: call.runId, toolCallId: call.toolCallId, agentId: call.agentId }),
      }
    );
  };

  // Warm-up: every kind on every instance, so the first timed requests do not load modules.
  const warm = new http.Agent({ keepAlive: true });
  for (const server of servers) {
    for (const [, kind, pathOf] of mix) {
      for (let i = 0; i < WARM_UPS; i++) {
        const outcome = await send(server, warm, cookies[0]!, { kind, method: "GET", path: pathOf() }, performance.now());
        if (outcome.status !== "200") throw new Error(`warm-up ${kind}: ${outcome.status}\n${server.output()}`);
      }
    }
    const outcome = await send(server, warm, cookies[0]!, floor(), performance.now());
    if (outcome.status !== "200") throw new Error(`warm-up floor: ${outcome.status}\n${server.output()}`);
    const decided = decide();
    if (decided) {
      const first = await send(server, warm, cookies[0]!, decided, performance.now());
      log(`a first approval through POST /api/decisions: ${first.status} in ${first.latencyMs.toFixed(0)} ms`);
    }
  }
  warm.destroy();

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
  const readList = Array.from({ length: 500 }, nextRead);
  const saturated = {
    mix: await saturation(servers[0]!, cookies[0]!, readList, saturationSeconds),
    floor: await saturation(servers[0]!, cookies[0]!, [floor()], saturationSeconds),
  };
  log(
    `saturation of one instance (autocannon, ${SATURATION_CONNECTIONS} connections, ${saturationSeconds} s): mix ${saturated.mix.requestsPerSecond} req/s (p99 ${saturated.mix.latencyMs.p99} ms, non-2xx ${saturated.mix.non2xx}, errors ${saturated.mix.errors}), floor ${saturated.floor.requestsPerSecond} req/s (p99 ${saturated.floor.latencyMs.p99} ms); ratio ${(saturated.mix.requestsPerSecond / saturated.floor.requestsPerSecond).toFixed(2)}`,
  );
  const phases: Array<{ target: "mix" | "floor"; loadAverage: number[]; drainSeconds: number } & Awaited<ReturnType<typeof openLoop>>> = [];
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
      );
      const loadAverage = os.loadavg().map((x) => Math.round(x * 10) / 10);
      phases.push({ target, loadAverage, drainSeconds, ...result });
      log(
        `${String(rate).padStart(4)} req/s ${target.padEnd(5)}: p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms; answered ${result.achievedRate}/s${result.rateReached ? "" : " (SHORT of the rate)"}, errors ${result.errors}/${result.sent}; client sent late by p99 ${result.sendLagMs.p99} ms; load average ${loadAverage[0]}`,
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
    saturation: { ...saturated, ratio: saturated.mix.requestsPerSecond / saturated.floor.requestsPerSecond },
    seconds_total: Math.round((performance.now() - started) / 1000),
  };
  if (asJson) console.log(JSON.stringify(result));
} finally {
  for (const server of servers) await server.stop();
  await database.drop();
}
process.exit(0);
