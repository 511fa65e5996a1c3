/**
 * `npm run bench:live -- [--streams 1000] [--pollers 100] [--seconds 10] [--decisions 20]`
 *
 * The live queue's costs (issue 45), on real console servers (server.mjs): one on SQLite, two on
 * PostgreSQL sharing a database.
 *  1. Idle cost: `--streams` open reviewer streams (GET /api/events/stream) and nothing happening for
 *     `--seconds`: the server's CPU (its process group's user+system time from /proc, as a share of one
 *     core) and its resident memory per stream (after minus before, divided). Beside it the same
 *     window with `--pollers` tabs reading GET /api/queue every 3 s, as the page did before, and
 *     that cost scaled to `--streams` tabs (1,000 pollers at once would fill this machine).
 *  2. Propagation (PostgreSQL): `--decisions` approvals through POST /api/decisions on instance A,
 *     each timed from sending to its decision.recorded event on a stream held on instance B.
 * Prints a table and the target lines; idle, no other load (the 50 req/s mix is not run here).
 * Memory per stream is measured after a few streams and a read warmed the server.
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../tests/helpers/demo-runs.ts";
import { openStream, type LiveStream } from "../tests/helpers/live-stream.ts";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "1000" },
    pollers: { type: "string", default: "100" },
    seconds: { type: "string", default: "10" },
    decisions: { type: "string", default: "20" },
  },
});
const STREAMS = Number(values.streams);
const POLLERS = Number(values.pollers);
const SECONDS = Number(values.seconds);
const DECISIONS = Number(values.decisions);
const TICKS = 100; // clock ticks a second, as /proc counts them on Linux

/** CPU seconds and resident bytes of every process in the server's process group. */
function usage(server: ConsoleServer): { cpu: number; rss: number } {
  let cpu = 0;
  let rss = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== server.pid) continue; // pgrp
    cpu += (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
    rss += Number(fields[21]) * 4096;
  }
  return { cpu, rss };
}

async function window<T>(server: ConsoleServer, during: () => Promise<T>) {
  const before = usage(server);
  const started = performance.now();
  await during();
  const seconds = (performance.now() - started) / 1000;
  return { cpuShare: (usage(server).cpu - before.cpu) / seconds };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function idleCost(label: string, server: ConsoleServer, cookie: string) {
  // Warm: the routes' modules loaded, the hub started, before the baseline.
  const warm = await Promise.all([1, 2, 3].map(() => openStream(server, cookie)));
  await Promise.all(warm.map((stream) => stream.waitFor((event) => event.event === "ready")));
  await fetch(`${server.url}/api/queue`, { headers: { cookie } }).then((response) => response.arrayBuffer());
  await sleep(1_000);
  const empty = usage(server);
  const streams: LiveStream[] = [];
  for (let i = 0; i < STREAMS; i += 50) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(50, STREAMS - i) }, () => openStream(server, cookie)))));
  }
  await Promise.all(streams.map((stream) => stream.waitFor((event) => event.event === "ready", 60_000)));
  const opened = streams.filter((stream) => stream.status === 200).length;
  await sleep(2_000);
  const held = usage(server);
  const idle = await window(server, () => sleep(SECONDS * 1000));
  for (const stream of [...streams, ...warm]) stream.close();
  await sleep(2_000);
  // The page before: every tab read the queue every 3 s, spread evenly.
  let reads = 0;
  const polling = await window(server, async () => {
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: POLLERS }, async (_, i) => {
        await sleep((3_000 * i) / POLLERS);
        while (Date.now() < until) {
          const next = Date.now() + 3_000;
          await fetch(`${server.url}/api/queue`, { headers: { cookie } }).then((response) => response.arrayBuffer());
          reads++;
          await sleep(Math.max(0, next - Date.now()));
        }
      }),
    );
  });
  return {
    label,
    opened,
    idleCpu: idle.cpuShare,
    perStreamKiB: (held.rss - empty.rss) / 1024 / Math.max(1, opened),
    pollCpu: polling.cpuShare,
    pollCpuScaled: (polling.cpuShare * STREAMS) / POLLERS,
    reads,
  };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const rows: Awaited<ReturnType<typeof idleCost>>[] = [];
const sqlite = await createTestDatabase("sqlite");
{
  const reviewer = await createTestAccount(sqlite.url, "reviewer");
  const server = await startConsoleServer(sqlite.url, { LIVE_STREAMS_PER_USER: String(STREAMS + 10) });
  try {
    rows.push(await idleCost("SQLite, one instance", server, await sessionCookie(sqlite.url, reviewer)));
  } finally {
    await server.stop();
  }
  await sqlite.drop();
}
const pg = await createTestDatabase("postgres");
const propagation: number[] = [];
{
  const reviewer = await createTestAccount(pg.url, "reviewer");
  const cookie = await sessionCookie(pg.url, reviewer);
  const [a, b] = await Promise.all([1, 2].map(() => startConsoleServer(pg.url, { LIVE_STREAMS_PER_USER: String(STREAMS + 10) })));
  try {
    rows.push(await idleCost("PostgreSQL, instance B of two", b!, cookie));
    const stream = await openStream(b!, cookie);
    await stream.waitFor((event) => event.event === "ready");
    // The first decision loads the agents on A: not counted.
    for (let i = -1; i < DECISIONS; i++) {
      const run = await suspendDemoRun(pg.url, "refunds", refundRequest(`ORD-L${i + 1}`));
      const sent = performance.now();
      const seen = stream.waitFor(
        (event) => event.event === "change" && event.data.includes(run.runId) && event.data.includes('"decision.recorded"'),
        30_000,
      );
      const decided = postDecision(a!, cookie, { action: "approve", ...run.ref });
      await seen;
      if (i >= 0) propagation.push(performance.now() - sent);
      await decided;
    }
    stream.close();
  } finally {
    await Promise.all([a!.stop(), b!.stop()]);
  }
  await pg.drop();
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
console.log(`\nIdle cost: ${STREAMS} open streams for ${SECONDS} s, beside ${POLLERS} tabs reading the queue every 3 s`);
console.log(
  "| database | streams open | CPU (one core), streams idle | memory per stream | CPU, pollers | CPU, pollers scaled to streams |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of rows) {
  console.log(
    `| ${row.label} | ${row.opened} | ${pct(row.idleCpu)} | ${row.perStreamKiB.toFixed(1)} KiB | ${pct(row.pollCpu)} (${row.reads} reads) | ${pct(row.pollCpuScaled)} |`,
  );
}
const sorted = [...propagation].sort((x, y) => x - y);
if (sorted.length > 0) {
  console.log(
    `\nPropagation, decision on A to its event on B (PostgreSQL, ${sorted.length} decisions, idle): p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms`,
  );
}
console.log("\nTargets:");
for (const row of rows)
  console.log(`- ${row.label}: idle streams use < 5% of a core: ${pct(row.idleCpu)} ${row.idleCpu < 0.05 ? "met" : "NOT met"}`);
if (sorted.length > 0) {
  const p95 = percentile(sorted, 95);
  console.log(`- propagation p95 < 500 ms: ${p95.toFixed(0)} ms ${p95 < 500 ? "met" : "NOT met"}`);
}
process.exit(0);
