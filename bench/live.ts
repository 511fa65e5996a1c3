/**
 * `npm run bench:live -- [--streams 1000] [--pollers 100] [--seconds 10] [--decisions 30] [--idle-decisions 10]
 *   [--rate 50] [--backlog 100000] [--load-seconds 120] [--json]`
 *
 * The live queue's costs (issue 45), on real console servers (server.mjs): one on SQLite, two on
 * PostgreSQL sharing a database.
 *  1. Idle cost (bench/live-idle.ts): `--streams` open reviewer streams and nothing happening for
 *     `--seconds`: the server's CPU as a share of one core and its resident memory per stream; beside
 *     it `--pollers` tabs reading GET /api/queue every 3 s, as the page did before, scaled to `--streams`.
 *  2. Propagation (bench/live-propagation.ts): two instances on a PostgreSQL backlog of `--backlog`
 *     runs; approvals sent to instance A timed to their decision.recorded change on a stream held on
 *     B and to their row gone from a real browser's queue on B: `--idle-decisions` with nothing else
 *     happening, then `--decisions` while the open-loop read mix runs at `--rate` req/s for `--load-seconds`.
 * Prints tables and target lines (bench/live-report.ts); with --json, one JSON line at the end
 * (bench/run.ts reads it). The load with streams held is bench/open-loop.ts --live-streams --conditional.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import { startConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { idleCost, type IdleCost } from "./live-idle.ts";
import { measurePropagation } from "./live-propagation.ts";
import { liveReport, type LiveResult } from "./live-report.ts";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "1000" },
    pollers: { type: "string", default: "100" },
    seconds: { type: "string", default: "10" },
    decisions: { type: "string", default: "30" },
    "idle-decisions": { type: "string", default: "10" },
    rate: { type: "string", default: "50" },
    backlog: { type: "string", default: "100000" },
    "load-seconds": { type: "string", default: "120" },
    json: { type: "boolean", default: false },
  },
});
const number = (name: keyof typeof values, min: number, max: number) => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return value;
};
const STREAMS = number("streams", 1, 10_000);
const POLLERS = number("pollers", 1, 1_000);
const SECONDS = number("seconds", 1, 300);
const options = {
  decisions: number("decisions", 1, 1_000),
  idleDecisions: number("idle-decisions", 2, 1_000),
  rate: number("rate", 1, 1_000),
  backlog: number("backlog", 1_000, 1_000_000),
  loadSeconds: number("load-seconds", 10, 1_800),
};
const log = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
const loadAverage = () => os.loadavg().map((x) => Math.round(x * 10) / 10);
const idleSettings = { streams: STREAMS, pollers: POLLERS, seconds: SECONDS };
const result: LiveResult = {
  streams: STREAMS,
  pollers: POLLERS,
  seconds: SECONDS,
  idle: [],
  loadAverageAtStart: loadAverage(),
  loadAverageAtEnd: [],
};
/** A part that failed is reported (the report's lines say "error: …"), and the other still runs. */
function failed(part: string, error: unknown) {
  result.error = [result.error, `${part}: ${(error as Error).message.slice(0, 300)}`].filter(Boolean).join("; ");
  log(`${part} failed: ${(error as Error).stack ?? error}`);
}
log(
  `live queue: ${STREAMS} streams, ${POLLERS} pollers, ${SECONDS} s; ${os.cpus().length} CPUs, load average ${result.loadAverageAtStart.join(" ")}`,
);

try {
  const rows: IdleCost[] = result.idle;
  const env = { LIVE_STREAMS_PER_USER: String(STREAMS + 10) };
  const sqlite = await createTestDatabase("sqlite");
  try {
    const reviewer = await createTestAccount(sqlite.url, "reviewer");
    const server = await startConsoleServer(sqlite.url, env);
    try {
      rows.push(await idleCost("SQLite, one instance", server, await sessionCookie(sqlite.url, reviewer), idleSettings));
    } finally {
      await server.stop();
    }
  } finally {
    await sqlite.drop();
  }
  log(`  idle cost on SQLite: ${JSON.stringify(rows.at(-1))}`);
  const pg = await createTestDatabase("postgres");
  try {
    const reviewer = await createTestAccount(pg.url, "reviewer");
    const cookie = await sessionCookie(pg.url, reviewer);
    const servers = await Promise.all([1, 2].map(() => startConsoleServer(pg.url, env)));
    try {
      rows.push(await idleCost("PostgreSQL, instance B of two", servers[1]!, cookie, idleSettings));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  } finally {
    await pg.drop();
  }
  log(`  idle cost on PostgreSQL: ${JSON.stringify(rows.at(-1))}`);
} catch (error) {
  failed("idle cost", error);
}
try {
  result.propagation = await measurePropagation(options, log);
} catch (error) {
  failed("propagation", error);
}
result.loadAverageAtEnd = loadAverage();

const report = liveReport(result, undefined);
log(`\n${report.table}\n\nTargets:`);
// The load with streams held is another run (bench/open-loop.ts): its line is the full benchmark's.
for (const target of report.targets.filter((x) => !x.target.startsWith("the load, replaced")))
  log(`- ${target.target}: ${target.value} ${target.met ? "met" : "NOT met"}`);
log(`(load average ${result.loadAverageAtStart.join(" ")} at the start, ${result.loadAverageAtEnd.join(" ")} at the end)`);
if (values.json) console.log(JSON.stringify(result));
process.exit(result.error ? 1 : 0);
