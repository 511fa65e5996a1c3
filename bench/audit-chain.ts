/**
 * The audit log's hash chain: what it costs and how fast it is checked.
 * 1. Decision throughput with the chain's trigger on against the same database with it off (the
 *    log as it was before the chain), on SQLite and PostgreSQL: `concurrency` decide() at a time,
 *    alternating rounds so drift hits both sides. Target: chained within 10% (ratio >= 0.90).
 * 2. `audit:verify` over `rows` rows on PostgreSQL (default 1,000,000), generated with their hashes
 *    computed as the trigger would and inserted directly; rows/s and the heap while verifying.
 *    Target: < 60 s, heap flat.
 * usage: audit-chain.ts [--decisions=40] [--rounds=4] [--concurrency=4] [--rows=1000000] [--no-verify] [--no-throughput] [--json]
 */
import { execFile } from "node:child_process";
import { parseArgs, promisify } from "node:util";
import pg from "pg";
import { contentHash, GENESIS_HASH, linkHash } from "../lib/audit/chain.ts";
import { verifyAuditChain } from "../lib/audit/verify.ts";
import { disconnectDb, getDb, type Db } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { decide } from "../lib/decisions/decide.ts";
import { getMastra } from "../lib/mastra/index.ts";
import { suspendRefundRun } from "./refund-run.ts";
import { withScratchDatabase } from "./scratch-database.ts";

const { values } = parseArgs({
  options: {
    decisions: { type: "string", default: "40" },
    rounds: { type: "string", default: "4" },
    concurrency: { type: "string", default: "4" },
    rows: { type: "string", default: "1000000" },
    "no-verify": { type: "boolean", default: false },
    "no-throughput": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const DECISIONS = Number(values.decisions);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const ROWS = Number(values.rows);
const HEAP_CAP_MB = 256;
const run = promisify(execFile);
const log = (line: string) => (values.json ? console.error(line) : console.log(line));

async function setChain(db: Db, kind: "sqlite" | "pg", on: boolean, triggerSql: string | undefined): Promise<void> {
  if (kind === "pg") await db.$executeRawUnsafe(`ALTER TABLE audit_events ${on ? "ENABLE" : "DISABLE"} TRIGGER audit_events_chain`);
  else {
    await db.$executeRawUnsafe("DROP TRIGGER IF EXISTS audit_events_chain");
    if (on) await db.$executeRawUnsafe(triggerSql!);
  }
}

/** Decisions per second, chained and not, over alternating rounds on one database. */
async function throughput(kind: "sqlite" | "pg") {
  return withScratchDatabase(kind, "auditchain", async (url) => {
    await deployMigrations(url);
    const db = await getDb(url);
    const [trigger] = await (kind === "sqlite"
      ? db.$queryRawUnsafe<Array<{ sql: string }>>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_events_chain'")
      : Promise.resolve([undefined]));
    const agent = (await getMastra(url)).getAgent("refunds");
    let seq = 0;
    const rates: Record<"chained" | "unchained", number[]> = { chained: [], unchained: [] };
    for (let round = 0; round < ROUNDS * 2 + 1; round++) {
      const chained = round % 2 === 0;
      const calls: Array<{ runId: string; toolCallId: string }> = [];
      for (let i = 0; i < DECISIONS; i++) calls.push(await suspendRefundRun(agent, ++seq, `chain-${round}`));
      await setChain(db, kind, chained, trigger?.sql);
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < calls.length) {
            const call = calls[next++]!;
            await decide({ action: "approve", ...call }, { reviewer: "bench", databaseUrl: url });
          }
        }),
      );
      const rate = DECISIONS / ((performance.now() - started) / 1000);
      if (round > 0) rates[chained ? "chained" : "unchained"].push(rate); // round 0 warms up
      if (!chained) await setChain(db, kind, true, trigger?.sql);
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    const chained = median(rates.chained);
    const unchained = median(rates.unchained);
    await disconnectDb(url);
    return { kind, decisions: DECISIONS, rounds: ROUNDS, concurrency: CONCURRENCY, chained, unchained, ratio: chained / unchained };
  });
}

/** `count` chained rows written straight into PostgreSQL, hashed as the trigger hashes them (it is off meanwhile). */
async function generate(url: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("ALTER TABLE audit_events DISABLE TRIGGER audit_events_chain");
    let prev = GENESIS_HASH;
    const start = Date.UTC(2026, 0, 1);
    for (let from = 1; from <= count; from += 10_000) {
      const columns: Record<string, unknown[]> = {};
      const push = (name: string, value: unknown) => (columns[name] ??= []).push(value);
      for (let seq = from; seq < Math.min(from + 10_000, count + 1); seq++) {
        const row = {
          at: new Date(start + seq * 1000),
          reviewer: `reviewer-${seq % 50}@example.com`,
          action: seq % 3 ? "approve" : "decline",
          outcome: seq % 2 ? "recorded" : "applied",
          runId: `run-${seq >> 1}`,
          toolCallId: `call-${seq >> 1}`,
          agentId: "refunds",
          toolName: "issueRefund",
          args: JSON.stringify({ order: `ORD-${seq}`, amount: seq % 500 }),
        };
        const content = contentHash(row);
        const hash = linkHash(seq, prev, content);
        for (const [name, value] of Object.entries(row)) push(name, value instanceof Date ? value.toISOString() : value);
        push("content", content);
        push("seq", seq);
        push("prev", prev);
        push("hash", hash);
        prev = hash;
      }
      const c = columns;
      await client.query(
        `INSERT INTO audit_events (at, reviewer, action, outcome, run_id, tool_call_id, agent_id, tool_name, args, content_hash, chain_seq, prev_hash, hash)
         SELECT * FROM unnest($1::timestamp[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::int[], $12::text[], $13::text[])`,
        [c.at, c.reviewer, c.action, c.outcome, c.runId, c.toolCallId, c.agentId, c.toolName, c.args, c.content, c.seq, c.prev, c.hash],
      );
    }
    await client.query("UPDATE audit_chain SET seq = $1, hash = $2 WHERE id = 1", [count, prev]);
    await client.query("ALTER TABLE audit_events ENABLE TRIGGER audit_events_chain");
    await client.query("ANALYZE audit_events");
  } finally {
    await client.end();
  }
}

async function verifyMillion() {
  return withScratchDatabase("pg", "auditverify", async (url) => {
    await deployMigrations(url);
    const generating = performance.now();
    await generate(url, ROWS);
    const generatedSeconds = (performance.now() - generating) / 1000;
    log(`  generated ${ROWS.toLocaleString("en")} chained rows in ${generatedSeconds.toFixed(1)} s`);
    // `npm run audit:verify` itself, in a child whose heap is capped: it finishes only if memory stays flat.
    const { stdout } = await run("npx", ["tsx", "scripts/audit-verify.ts", "--json"], {
      env: { ...process.env, DATABASE_URL: url, NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}` },
      maxBuffer: 1 << 20,
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as { rows: number; ok: boolean; seconds: number; peakRssMb: number };
    return {
      rows: result.rows,
      ok: result.ok,
      seconds: result.seconds,
      rowsPerSecond: Math.round(result.rows / result.seconds),
      heapCapMb: HEAP_CAP_MB,
      peakRssMb: result.peakRssMb,
    };
  });
}

const out: Record<string, unknown> = {};
if (!values["no-throughput"]) {
  for (const kind of ["sqlite", "pg"] as const) {
    log(
      `decision throughput on ${kind}, chained vs the trigger off (${DECISIONS} decisions × ${ROUNDS} rounds each, ${CONCURRENCY} at a time)…`,
    );
    const result = await throughput(kind);
    out[`throughput_${kind}`] = result;
    log(
      `  ${kind}: chained ${result.chained.toFixed(1)}/s, unchained ${result.unchained.toFixed(1)}/s, ratio ${result.ratio.toFixed(3)} (target >= 0.90: ${result.ratio >= 0.9 ? "met" : "NOT met"})`,
    );
  }
}
if (!values["no-verify"]) {
  log(`audit:verify over ${ROWS.toLocaleString("en")} rows on PostgreSQL…`);
  const result = await verifyMillion();
  out.verify = result;
  log(
    `  ${result.rows.toLocaleString("en")} rows in ${result.seconds.toFixed(1)} s (${result.rowsPerSecond.toLocaleString("en")} rows/s, ok=${result.ok}) with the heap capped at ${result.heapCapMb} MB, peak RSS ${result.peakRssMb} MB (target < 60 s: ${result.seconds < 60 ? "met" : "NOT met"})`,
  );
}
if (values.json) console.log(JSON.stringify(out));
process.exit(0);
