/**
 * The live queue's idle cost (bench/live.ts): open reviewer streams with nothing happening, the
 * server's CPU (its process group's user+system time from /proc, as a share of one core) and its
 * resident memory per stream; beside it the same window with tabs reading GET /api/queue every 3 s,
 * as the page did before.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { ConsoleServer } from "../tests/helpers/console-server.ts";
import { openStream, type LiveStream } from "../tests/helpers/live-stream.ts";

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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface IdleCost {
  label: string;
  /** Streams the server let in, of those asked for. */
  opened: number;
  /** CPU as a share of one core while the streams were open and idle. */
  idleCpu: number;
  /** The same window before any stream was open: what the server's own periodic work costs (absent in older results). */
  baselineCpu?: number;
  perStreamKiB: number;
  /** CPU as a share of one core with `pollers` tabs reading the queue every 3 s, and that scaled to `streams` tabs. */
  pollCpu: number;
  pollCpuScaled: number;
  reads: number;
}

/** Memory per stream is measured after a few streams and a read warmed the server. */
export async function idleCost(
  label: string,
  server: ConsoleServer,
  cookie: string,
  { streams: count, pollers, seconds }: { streams: number; pollers: number; seconds: number },
): Promise<IdleCost> {
  // Warm: the routes' modules loaded, the hub started, before the baseline.
  const warm = await Promise.all([1, 2, 3].map(() => openStream(server, cookie)));
  await Promise.all(warm.map((stream) => stream.waitFor((event) => event.event === "ready")));
  await fetch(`${server.url}/api/queue`, { headers: { cookie } }).then((response) => response.arrayBuffer());
  await sleep(1_000);
  // The server's own timers (rules, recovery, expiry, the outbox) run whether streams are open or not.
  const baseline = await window(server, () => sleep(seconds * 1000));
  const empty = usage(server);
  const streams: LiveStream[] = [];
  for (let i = 0; i < count; i += 50) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => openStream(server, cookie)))));
  }
  await Promise.all(streams.map((stream) => stream.waitFor((event) => event.event === "ready", 60_000)));
  const opened = streams.filter((stream) => stream.status === 200).length;
  await sleep(2_000);
  const held = usage(server);
  const idle = await window(server, () => sleep(seconds * 1000));
  for (const stream of [...streams, ...warm]) stream.close();
  await sleep(2_000);
  // The page before: every tab read the queue every 3 s, spread evenly.
  let reads = 0;
  const polling = await window(server, async () => {
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: pollers }, async (_, i) => {
        await sleep((3_000 * i) / pollers);
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
    baselineCpu: baseline.cpuShare,
    perStreamKiB: (held.rss - empty.rss) / 1024 / Math.max(1, opened),
    pollCpu: polling.cpuShare,
    pollCpuScaled: (polling.cpuShare * count) / pollers,
    reads,
  };
}
