/**
 * `npm run audit:verify [-- --checkpoint <seq>:<hash>] [--json]`: walks the audit log's hash chain on
 * DATABASE_URL and names the first row changed, deleted or inserted out of order (lib/audit/verify.ts).
 * With --checkpoint (an `audit.checkpoint` event kept outside the database), the log must still end
 * in that hash at that place. Exits 0 when the chain holds, 1 when it does not, 2 on bad usage.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { databaseUrlFromEnv, disconnectDb, getDb } from "../lib/db/client.ts";
import { verifyAuditChain, type Checkpoint } from "../lib/audit/verify.ts";

const { values } = parseArgs({ options: { checkpoint: { type: "string" }, json: { type: "boolean", default: false } } });
let checkpoint: Checkpoint | undefined;
if (values.checkpoint !== undefined) {
  const match = /^(\d{1,10}):([0-9a-f]{64})$/.exec(values.checkpoint);
  if (!match) {
    console.error("Usage: npm run audit:verify -- [--checkpoint <seq>:<64 hex digits>] [--json]");
    process.exit(2);
  }
  checkpoint = { seq: Number(match[1]), hash: match[2]! };
}
const databaseUrl = databaseUrlFromEnv();
const started = performance.now();
try {
  const result = await verifyAuditChain(await getDb(databaseUrl), { checkpoint });
  const seconds = (performance.now() - started) / 1000;
  if (values.json) console.log(JSON.stringify({ ...result, seconds, peakRssMb: peakRssMb() }));
  else if (result.ok) {
    console.log(`The audit log's chain holds: ${result.rows} rows, head ${result.head.seq} ${result.head.hash} (${seconds.toFixed(1)} s).`);
    if (result.legacyRows > 0)
      console.log(`${result.legacyRows} rows were written before the chain began (${result.startedAt}): counted, not hashed.`);
    if (checkpoint) console.log(`It still ends in the checkpoint's hash at ${checkpoint.seq}.`);
  } else console.log(`The audit log was tampered with: ${result.problem!.message}`);
  await disconnectDb(databaseUrl);
  process.exit(result.ok ? 0 : 1);
} catch (error) {
  console.error(`Cannot verify the audit log: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

/**
 * The process's peak resident memory (the kernel's VmHWM; getrusage's maxRSS is inherited across
 * exec), so a bench can show the walk stays flat (bench/audit-chain.ts).
 */
function peakRssMb(): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    if (kb) return Math.round(Number(kb) / 1024);
  } catch {
    // not Linux
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
