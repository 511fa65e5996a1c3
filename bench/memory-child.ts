/**
 * A process that lists a whole backlog the way the console does: every benchmark case, many times,
 * and a walk over the first 200 pages. Prints its peak RSS (whole process, from the kernel).
 * usage: memory-child.ts <database url>
 */
import { readFileSync } from "node:fs";
import { disconnectDb } from "../lib/db/client.ts";
import { listSuspendedRuns } from "../lib/runs/list-suspended-runs.ts";
import { caseValues } from "./backlog.ts";

const url = process.argv[2]!;
const v = caseValues();
const cases = [{}, { resourceId: v.resourceId }, { threadId: v.threadId }, { agentId: v.agentId }, v.day];
let total = 0;
for (let round = 0; round < 20; round++) {
  for (const c of cases) total = (await listSuspendedRuns({ ...c, perPage: 50, page: 0 }, url)).total;
  await listSuspendedRuns({ perPage: 50, page: 500 }, url);
}
for (let page = 0; page < 200; page++) await listSuspendedRuns({ perPage: 100, page }, url);
await disconnectDb(url);
console.log(JSON.stringify({ peakRssMb: peakRssMb(), total }));

/**
 * This process's own peak RSS. Linux's getrusage maxRSS survives exec: a child spawned by a big
 * parent (the benchmark holds ~250 MB) starts at the parent's peak. /proc's VmHWM belongs to this
 * process's memory alone.
 */
function peakRssMb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}
process.exit(0);
