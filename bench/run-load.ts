/**
 * bench/run.ts's load children: the open-loop load and the token floor on each database (full and
 * quick), and, in a full run only, the live queue (bench/live.ts) and the load replaced: the open
 * loop across two PostgreSQL instances with 1,000 live streams held and conditional reads.
 */
import type { BenchResults } from "./cases.ts";
import { child } from "./children.ts";
import type { LiveResult } from "./live-report.ts";
import type { OpenLoopResult } from "./load-report.ts";
import type { TokenFloorResult } from "./targets.ts";

export async function runLoad(results: BenchResults, { quick, live }: { quick: boolean; live: boolean }, log: (line: string) => void) {
  for (const db of ["postgres", "sqlite"] as const) {
    log(`load: open loop at fixed arrival rates on ${db}, with the floor…`);
    results.load[db] = (await child(
      "open-loop.ts",
      ["--db", db, "--json", ...(quick ? ["--quick"] : [])],
      {},
      1_800_000,
    )) as OpenLoopResult;
    log(`floor on ${db}: signed in with a session vs an API token…`);
    results.tokenFloor[db] = (await child("token-floor.ts", ["--db", db, "--json", "--seconds", quick ? "3" : "10"])) as TokenFloorResult;
  }
  // Not in the quick run: servers with a thousand streams, a browser and minutes of load.
  if (quick || !live) return;
  log("live queue: idle streams, propagation across instances idle and under the mix (bench/live.ts)…");
  results.live = (await child("live.ts", ["--json"], {}, 3_600_000)) as LiveResult;
  log("load, replaced: the open loop with 1,000 live streams held and conditional reads (PostgreSQL, two instances)…");
  results.liveLoad = (await child(
    "open-loop.ts",
    ["--db", "postgres", "--json", "--live-streams", "1000", "--conditional", "--saturation-seconds", "0"],
    {},
    1_800_000,
  )) as OpenLoopResult;
}
