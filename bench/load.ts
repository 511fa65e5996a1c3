/**
 * `npm run bench:load -- [--db sqlite|postgres] [--clients 200] [--seconds 30] [--backlog 3000] [--mix api|mixed]`
 *
 * What many reviewers at once do to one console server: a throwaway database of its own (as the
 * tests make them), a backlog of suspended runs (bench/backlog.ts, loaded as bench/stores.ts loads
 * the benchmark's), a signed-in reviewer, a real production server (tests/helpers/console-server.ts,
 * so it starts whatever the tests start), then N keep-alive clients on loopback asking for
 * `GET /api/runs?perPage=50` (with `--mix mixed`: also a resource's runs and the runs page) as fast
 * as the server answers, for a bounded time. Prints throughput, latency percentiles, status codes
 * and the server process's memory (VmRSS / VmHWM) before, at peak and after the load.
 *
 * Clients are node:http with one keep-alive Agent of `clients` sockets: built in, and on a 2-core
 * machine shared with the server it leaves more CPU to the server than fetch would.
 * Other flags: --settle <s> (wait before the "after" reading, 10), --rounds <n> (load + settle n times on
 * the same server: does memory come back, or keep growing?), --json (one JSON line at the end),
 * --server-node-options "<flags>" (NODE_OPTIONS for the server, e.g. --trace-gc or --require a profiler
 * preload while investigating; Node refuses --cpu-prof there).
 */
import http from "node:http";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import os from "node:os";
import { disconnectDb } from "../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import { startConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { compileTemplates, generateBacklog, loadTemplates, resourceName } from "./backlog.ts";
import { loadOurBacklog } from "./stores.ts";

/* ---------- options ---------- */

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}
const db = option("db", "sqlite");
const clients = Number(option("clients", "200"));
const seconds = Number(option("seconds", "30"));
const backlog = Number(option("backlog", "3000"));
const mix = option("mix", "api");
const settleSeconds = Number(option("settle", "10"));
const roundCount = Number(option("rounds", "1"));
const serverNodeOptions = option("server-node-options", "");
const asJson = process.argv.includes("--json");
if (db !== "sqlite" && db !== "postgres") throw new Error("--db must be sqlite or postgres");
if (mix !== "api" && mix !== "mixed") throw new Error("--mix must be api or mixed");
for (const [name, value, max] of [
  ["clients", clients, 1_000],
  ["seconds", seconds, 120],
  ["backlog", backlog, 100_000],
  ["rounds", roundCount, 5],
] as const) {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`--${name} must be an integer from 1 to ${max}`);
}
if (!Number.isInteger(settleSeconds) || settleSeconds < 0 || settleSeconds > 60)
  throw new Error("--settle must be an integer from 0 to 60");
/** A request that takes longer than this counts as an error, so a run always ends. */
const REQUEST_TIMEOUT_MS = 60_000;
const log = (line: string) => (asJson ? process.stderr : process.stdout).write(`${line}\n`);

/* ---------- the server process's memory and CPU, from /proc ---------- */

/**
 * The pid in `leader`'s process group that listens on `port`: the server itself, whether it is the
 * process we started (`next start` 16.4 serves in-process) or a child of it (a forking launcher).
 */
function listeningPid(leader: number, port: number): number {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === "0A" && parseInt(fields[1]?.split(":")[1] ?? "", 16) === port) inodes.add(fields[9]!);
    }
  }
  const members = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[2]) === leader;
      } catch {
        return false; // gone meanwhile
      }
    });
  for (const pid of members) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (socket && inodes.has(socket)) return Number(pid);
      }
    } catch {
      // gone meanwhile
    }
  }
  return leader;
}

const mib = (kb: number) => Math.round(kb / 1024);
function memory(pid: number): { rssMiB: number; hwmMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { rssMiB: mib(kb("VmRSS")), hwmMiB: mib(kb("VmHWM")) };
}
/** User + system CPU seconds the process has used. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/* ---------- latency statistics ---------- */

function summary(samples: number[]) {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { n: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(at(1)) };
}

/* ---------- setup ---------- */

const started = performance.now();
log(
  `load: ${db}, ${clients} clients, ${seconds} s, backlog ${backlog.toLocaleString("en")} suspended runs, mix ${mix}; ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
const { templates } = await loadTemplates(log);
const database = await createTestDatabase(db);
let stopServer = async () => {};
try {
  await loadOurBacklog(database.url, generateBacklog(compileTemplates(templates), backlog));
  const account = await createTestAccount(database.url, "reviewer");
  const cookie = await sessionCookie(database.url, account);
  await disconnectDb(database.url); // the server is the only one using the database from here on
  const server = await startConsoleServer(database.url, serverNodeOptions ? { NODE_OPTIONS: serverNodeOptions } : {});
  stopServer = () => server.stop();
  const port = Number(new URL(server.url).port);
  const pid = listeningPid(server.pid, port);
  log(
    `server: ${server.url}, next-server pid ${pid} (group ${server.pid}); setup took ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // One keep-alive socket per client, made afresh each round (idle sockets would meet the server's
  // keep-alive timeout during the pause between rounds).
  let agent = new http.Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
  const PATHS = {
    list: "/api/runs?perPage=50",
    resource: `/api/runs?resourceId=${resourceName(7)}&perPage=50`,
    page: "/",
  } as const;
  type Kind = keyof typeof PATHS;
  const pick = (): Kind => {
    if (mix === "api") return "list";
    const r = Math.random();
    return r < 0.8 ? "list" : r < 0.9 ? "resource" : "page";
  };
  const get = (kind: Kind) =>
    new Promise<number>((resolve, reject) => {
      const request = http.get(
        {
          host: "127.0.0.1",
          port,
          path: PATHS[kind],
          agent,
          headers: { cookie, accept: kind === "page" ? "text/html" : "application/json" },
          timeout: REQUEST_TIMEOUT_MS,
        },
        (response) => {
          response.on("data", () => undefined);
          response.on("end", () => resolve(response.statusCode ?? 0));
          response.on("error", reject);
        },
      );
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", reject);
    });

  // Warm-up, one client: the first requests load the route's modules and the database clients.
  for (const kind of Object.keys(PATHS) as Kind[]) {
    for (let i = 0; i < 10; i++) {
      const status = await get(kind);
      if (status !== 200) throw new Error(`warm-up ${PATHS[kind]}: HTTP ${status}\n${server.output()}`);
    }
  }
  // The load: every client sends its next request as soon as the last one is answered.
  const round = async () => {
    const before = memory(pid);
    const cpuBefore = cpuSeconds(pid);
    const latencies: Record<Kind, number[]> = { list: [], resource: [], page: [] };
    const statuses: Record<string, number> = {};
    const perClient: number[] = [];
    let peakRss = before.rssMiB;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, memory(pid).rssMiB)), 200);
    const loadStarted = performance.now();
    const deadline = loadStarted + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        perClient[client] = 0;
        while (performance.now() < deadline) {
          const kind = pick();
          const t = performance.now();
          let outcome: string;
          try {
            outcome = String(await get(kind));
            latencies[kind].push(performance.now() - t);
            perClient[client]!++;
          } catch (error) {
            outcome = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
          }
          statuses[outcome] = (statuses[outcome] ?? 0) + 1;
        }
      }),
    );
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    clearInterval(sampler);
    const cpuDuring = cpuSeconds(pid) - cpuBefore;
    const atEnd = memory(pid);
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    const after = memory(pid);
    const all = Object.values(latencies).flat();
    return {
      requests: all.length,
      requestsPerSecond: Math.round(all.length / loadSeconds),
      loadSeconds: Math.round(loadSeconds * 10) / 10,
      latencyMs: {
        all: summary(all),
        ...Object.fromEntries((Object.keys(latencies) as Kind[]).filter((k) => latencies[k].length).map((k) => [k, summary(latencies[k])])),
      },
      statuses,
      /** Answers each client got: a starved client (connection not served) shows as a minimum near 0. */
      perClient: { min: Math.min(...perClient), median: summary(perClient).p50, max: Math.max(...perClient) },
      serverCpuSeconds: Math.round(cpuDuring * 10) / 10,
      memoryMiB: {
        before: before.rssMiB,
        peak: Math.max(peakRss, atEnd.rssMiB),
        atEnd: atEnd.rssMiB,
        afterSettle: after.rssMiB,
        hwm: after.hwmMiB,
      },
    };
  };

  const rounds = [];
  for (let i = 1; i <= roundCount; i++) {
    const r = await round();
    rounds.push(r);
    if (roundCount > 1) log(`round ${i} of ${roundCount}:`);
    log(
      `${r.requests.toLocaleString("en")} requests in ${r.loadSeconds} s: ${r.requestsPerSecond} req/s; the server used ${r.serverCpuSeconds} CPU s`,
    );
    log(
      `statuses: ${Object.entries(r.statuses)
        .map(([s, n]) => `${s} ×${n}`)
        .join(", ")}; answers per client: min ${r.perClient.min}, median ${r.perClient.median}, max ${r.perClient.max}`,
    );
    for (const [kind, s] of Object.entries(r.latencyMs)) {
      log(`  ${kind.padEnd(8)} n=${String(s.n).padStart(6)}  p50 ${s.p50} ms  p95 ${s.p95} ms  p99 ${s.p99} ms  max ${s.max} ms`);
    }
    const m = r.memoryMiB;
    log(
      `server RSS (MiB): before ${m.before}, peak ${m.peak}, at end ${m.atEnd}, ${settleSeconds} s after ${m.afterSettle}; VmHWM ${m.hwm}`,
    );
  }
  agent.destroy();
  if (asJson) {
    console.log(
      JSON.stringify({
        db,
        clients,
        seconds,
        backlog,
        mix,
        settleSeconds,
        cpus: os.cpus().length,
        loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
        rounds,
      }),
    );
  }
} finally {
  await stopServer();
  await database.drop();
}
process.exit(0);
