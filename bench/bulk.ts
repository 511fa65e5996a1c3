/**
 * Bulk approval: one bulk request of N calls (lib/decisions/bulk.ts `decideBatch`) against N single
 * approvals one after the other (`decide()`, as N requests would), on the same kind of runs of the
 * real refunds agent, on SQLite and on PostgreSQL. Both sides end in the same durable states
 * (checked: N applied decisions, N tool effects, two audit rows per call); the figure is the wall
 * time and the time per call, and the ratio bulk / single per call (target: <= 1).
 * With `--concurrency 1,4` the bulk side is measured at each concurrency (calls of one run are never
 * carried out at once, whatever the setting).
 *
 * usage: npx tsx bench/bulk.ts [N=100] [--stores sqlite,pg] [--concurrency 1[,4…]] [--rounds 5]
 *   (prints a table on stderr, then one JSON line on stdout; each round alternates the sides' order)
 */
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { decideBatch } from "../lib/decisions/bulk.ts";
import { decide } from "../lib/decisions/decide.ts";
import { getMastra } from "../lib/mastra/index.ts";
import { suspendRefundRun } from "./refund-run.ts";
import { withScratchDatabase } from "./scratch-database.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] ? argv[at + 1]! : fallback;
};
const n = Number(argv.find((arg) => /^\d+$/.test(arg)) ?? 100);
const stores = option("stores", "sqlite,pg").split(",") as Array<"sqlite" | "pg">;
const concurrencies = option("concurrency", "1").split(",").map(Number);
const rounds = Number(option("rounds", "5"));
const log = (line: string) => console.error(line);
const round1 = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

let seq = 0;
/** N refund runs waiting for approval, each on its own thread and resource. */
async function suspendRuns(url: string, count: number) {
  const agent = (await getMastra(url)).getAgent("refunds");
  const calls: Array<{ runId: string; toolCallId: string }> = [];
  for (let i = 0; i < count; i++) {
    const { runId, toolCallId } = await suspendRefundRun(agent, ++seq, "bulk");
    calls.push({ runId, toolCallId });
  }
  return calls;
}

/** The durable state both sides must end in: every call applied once, its tool run once, recorded then applied. */
async function durableState(url: string, calls: Array<{ runId: string; toolCallId: string }>) {
  const db = await getDb(url);
  const toolCallIds = calls.map((call) => call.toolCallId);
  const [applied, effects, audit, snapshots] = await Promise.all([
    db.toolCallDecision.count({ where: { toolCallId: { in: toolCallIds }, state: "applied" } }),
    db.toolEffect.count({ where: { toolCallId: { in: toolCallIds } } }),
    db.auditEvent.count({ where: { toolCallId: { in: toolCallIds } } }),
    db.workflowSnapshot.count({ where: { runId: { in: calls.map((call) => call.runId) } } }),
  ]);
  return { applied, effects, audit, snapshots };
}

const expected = { applied: n, effects: n, audit: 2 * n, snapshots: 0 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Side = {
  wallMs: number;
  bestWallMs: number;
  perCallMs: number;
  bestPerCallMs: number;
  ratio?: number;
  bestRatio?: number;
  samplesMs: number[];
  sameDurableState: boolean;
};
const results: Record<string, Record<string, Side>> = {};
for (const store of stores) {
  results[store] = await withScratchDatabase(store, "bulk", async (url) => {
    await deployMigrations(url);
    // Warm-up: the agent, the store, both code paths.
    const warm = await suspendRuns(url, 4);
    for (const call of warm.slice(0, 2)) await decide({ action: "approve", ...call }, { reviewer: "bench", databaseUrl: url });
    await decideBatch({ action: "approve", calls: warm.slice(2) }, { reviewer: "bench", databaseUrl: url });

    const sides: Record<string, (calls: Array<{ runId: string; toolCallId: string }>) => Promise<unknown>> = {
      single: async (calls) => {
        for (const call of calls) await decide({ action: "approve", ...call }, { reviewer: "bench", databaseUrl: url });
      },
    };
    for (const concurrency of concurrencies) {
      sides[`bulk c${concurrency}`] = (calls) =>
        decideBatch({ action: "approve", calls }, { reviewer: "bench", databaseUrl: url, concurrency });
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
    const durable: Record<string, boolean> = Object.fromEntries(Object.keys(sides).map((name) => [name, true]));
    for (let round = 0; round < rounds; round++) {
      // Alternate the order, so that neither side always meets the larger (or warmer) database.
      const order = round % 2 ? Object.keys(sides).reverse() : Object.keys(sides);
      for (const name of order) {
        log(`${store}: round ${round + 1}/${rounds}, ${name}: suspending ${n} runs…`);
        const calls = await suspendRuns(url, n);
        const started = performance.now();
        await sides[name]!(calls);
        samples[name]!.push(performance.now() - started);
        if (JSON.stringify(await durableState(url, calls)) !== JSON.stringify(expected)) durable[name] = false;
      }
    }
    await disconnectDb(url);
    const single = samples.single!;
    return Object.fromEntries(
      Object.entries(samples).map(([name, ms]) => [
        name,
        {
          wallMs: round1(median(ms)),
          bestWallMs: round1(Math.min(...ms)),
          perCallMs: round1(median(ms) / n, 2),
          bestPerCallMs: round1(Math.min(...ms) / n, 2),
          ...(name === "single"
            ? {}
            : { ratio: round1(median(ms) / median(single), 3), bestRatio: round1(Math.min(...ms) / Math.min(...single), 3) }),
          samplesMs: ms.map((x) => round1(x)),
          sameDurableState: durable[name]!,
        },
      ]),
    );
  });
}

console.error(
  `\n${n} calls approved, ${rounds} rounds: median / best (the best round is the least disturbed by other work on the machine); per call = wall / ${n}; ratio = bulk / single\n`,
);
console.error("| store | way | wall | per call | ratio to single | durable state as expected |");
console.error("| --- | --- | --- | --- | --- | --- |");
for (const [store, sides] of Object.entries(results)) {
  for (const [name, side] of Object.entries(sides)) {
    const ratio = side.ratio === undefined ? "—" : `${side.ratio.toFixed(2)}x / ${side.bestRatio!.toFixed(2)}x`;
    console.error(
      `| ${store} | ${name} | ${side.wallMs} / ${side.bestWallMs} ms | ${side.perCallMs} / ${side.bestPerCallMs} ms | ${ratio} | ${side.sameDurableState ? "yes" : "**no**"} |`,
    );
  }
}
console.log(JSON.stringify({ n, rounds, stores: results }));
process.exit(0);
