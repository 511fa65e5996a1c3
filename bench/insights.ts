/**
 * `npm run bench:insights` (and part of `npm run bench`): the insights over a month of decisions.
 * Generates N people's, rules', suggestions' and expiry decisions spread over the last 30 days (full:
 * 1,000,000; --quick: 50,000) on SQLite and PostgreSQL, carried to `applied` in batches so the
 * triggers of migration `insights` keep the rollups exactly as production does, then times
 * readInsights (every panel of /insights) for 30 days: no filter, an agent, a risk, and a resource
 * prefix (the only case that reads the calls' own rows). Prints the figures; target: every panel
 * under 200 ms at 1,000,000. `--engine=sqlite|pg` runs one database only, `--decisions=N` another size.
 */
import { getDb, disconnectDb, type Db } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { isPostgresClient } from "@agent-approvals/mastra-store";
import { readInsights } from "../lib/insights/insights.ts";
import { recordReviewTargets } from "../lib/insights/record.ts";
import { insightsQuery } from "../lib/insights/validations.ts";
import { withScratchDatabase } from "./scratch-database.ts";
import { measure } from "./timing.ts";

const QUICK = process.argv.includes("--quick");
const sizeArg = process.argv.find((arg) => arg.startsWith("--decisions="));
const DECISIONS = sizeArg ? Number(sizeArg.split("=")[1]) : QUICK ? 50_000 : 1_000_000;
const BATCH = 20_000;
const engineArg = process.argv.find((arg) => arg.startsWith("--engine="))?.split("=")[1];
const ENGINES = (["sqlite", "pg"] as const).filter((engine) => !engineArg || engine === engineArg);
const TARGET_MS = 200;

/** One row per call: which agent/tool/customer, when it waited, how it ended; shared by both dialects. */
function generation(postgres: boolean, n: number): string[] {
  const series = postgres ? `generate_series(1, ${n}) AS s(i)` : `s`;
  const withSeries = postgres ? "" : `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n}) `;
  const rand = postgres ? "random()" : "(abs(random()) % 1000000) / 1000000.0";
  // A wait of up to 4 hours, most of them short; waiting_since in the last 30 days, decided before now.
  const at = (secondsAgo: string) =>
    postgres
      ? `(now() AT TIME ZONE 'UTC') - make_interval(secs => ${secondsAgo})`
      : `strftime('%Y-%m-%dT%H:%M:%f', 'now', '-' || (${secondsAgo}) || ' seconds') || '+00:00'`;
  const text = (expr: string) => (postgres ? `(${expr})::text` : `CAST(${expr} AS TEXT)`);
  const mod = (a: string, b: number) => `(${a} % ${b})`;
  return [
    `CREATE TABLE bench_calls AS ${withSeries}SELECT i,
        ${mod("i", 20)} AS tool,
        (30 * 86400 - 14400) * ${rand} + 14400 AS waited_ago,
        14400 * ${rand} * ${rand} * ${rand} AS wait,
        ${mod("i", 100)} AS kind,
        ${mod("i * 7", 30)} AS reviewer
      FROM ${series}`,
    `INSERT INTO call_rule_matches (run_id, tool_call_id, rule_id, rule_version, effect, risk, matched_at, settled_at)
      SELECT 'r' || ${text("i")}, 'c' || ${text("i")}, NULL, NULL, NULL,
        CASE ${mod("tool", 4)} WHEN 0 THEN 'low' WHEN 1 THEN 'medium' WHEN 2 THEN 'high' ELSE 'critical' END, ${at("waited_ago")}, ${at("waited_ago")}
      FROM bench_calls WHERE tool < 15`,
    // The arrivals go through their trigger in slices of BATCH calls, a transaction each: every arrival
    // updates one of a few hundred rollup rows, and PostgreSQL slows down sharply when one transaction
    // rewrites the same rows hundreds of thousands of times (production writes one call per transaction).
    ...Array.from(
      { length: Math.ceil(n / BATCH) },
      (_, slice) => `INSERT INTO call_reviews (run_id, tool_call_id, agent_id, tool_name, resource_id, waiting_since)
      SELECT 'r' || ${text("i")}, 'c' || ${text("i")}, 'agent_' || ${text(mod("tool", 6))}, 'tool_' || ${text("tool")},
        'cust_' || ${text(mod("i", 5000))}, ${at("waited_ago")}
      FROM bench_calls WHERE i > ${slice * BATCH} AND i <= ${(slice + 1) * BATCH}`,
    ),
    // kind 0-69: a person (approve 80%, decline 15%, resume 5%); 70-89: a rule; 90-94: a suggestion; 95-99: expired.
    `INSERT INTO tool_call_decisions (id, run_id, tool_call_id, action, state, reviewer, agent_id, resource_id, tool_name, attempts,
        lease_until, decided_at, updated_at, rule_id, rule_version, expiry_mode)
      SELECT 'd' || ${text("i")}, 'r' || ${text("i")}, 'c' || ${text("i")},
        CASE WHEN kind >= 95 THEN 'expire' WHEN ${mod("i", 20)} < 16 OR kind >= 90 THEN 'approve' WHEN ${mod("i", 20)} < 19 THEN 'decline' ELSE 'resume' END,
        'applying',
        CASE WHEN kind < 70 THEN 'reviewer' || ${text("reviewer")} || '@example.com' WHEN kind < 90 THEN 'rule ''bench'' (version 1)'
          WHEN kind < 95 THEN 'suggestion by reviewer1@example.com' ELSE 'console' END,
        'agent_' || ${text(mod("tool", 6))}, 'cust_' || ${text(mod("i", 5000))}, 'tool_' || ${text("tool")}, 1,
        ${at("waited_ago - wait")}, ${at("waited_ago - wait")}, ${at("waited_ago - wait")},
        CASE WHEN kind >= 70 AND kind < 90 THEN 'bench-rule' END, CASE WHEN kind >= 70 AND kind < 90 THEN 1 END,
        CASE WHEN kind >= 95 THEN 'decline' END
      FROM bench_calls`,
    // Half of the people opened the call, a third of those its context; some approved within seconds.
    `INSERT INTO call_views (run_id, tool_call_id, reviewer, opened_at, context_opened_at)
      SELECT 'r' || ${text("i")}, 'c' || ${text("i")}, 'reviewer' || ${text("reviewer")} || '@example.com',
        ${at("waited_ago - wait + CASE WHEN " + mod("i", 4) + " = 0 THEN 3 ELSE 60 END")},
        CASE WHEN ${mod("i", 3)} = 0 THEN ${at("waited_ago - wait + 30")} END
      FROM bench_calls WHERE kind < 70 AND ${mod("i", 2)} = 0`,
    `DROP TABLE bench_calls`,
  ];
}

export async function generate(db: Db, n: number, log: (line: string) => void): Promise<void> {
  const postgres = isPostgresClient(db);
  const started = performance.now();
  for (const statement of generation(postgres, n)) await db.$executeRawUnsafe(statement);
  log(`  rows written in ${((performance.now() - started) / 1000).toFixed(1)} s; applying through the triggers…`);
  const applyStarted = performance.now();
  for (let done = 0; ;) {
    const moved = await db.$executeRawUnsafe(
      postgres
        ? `UPDATE tool_call_decisions SET state = 'applied' WHERE id IN (SELECT id FROM tool_call_decisions WHERE state = 'applying' LIMIT ${BATCH})`
        : `UPDATE tool_call_decisions SET state = 'applied' WHERE rowid IN (SELECT rowid FROM tool_call_decisions WHERE state = 'applying' LIMIT ${BATCH})`,
    );
    if (moved === 0) break;
    done += moved;
    if (done % 200_000 === 0 || done === n) log(`  ${done.toLocaleString("en-US")} applied`);
  }
  const seconds = (performance.now() - applyStarted) / 1000;
  log(
    `  triggers: ${n.toLocaleString("en-US")} decisions applied in ${seconds.toFixed(1)} s (${Math.round((seconds * 1e6) / n)} µs per decision)`,
  );
  if (postgres) await db.$executeRawUnsafe("ANALYZE");
  else await db.$executeRawUnsafe("ANALYZE");
}

export interface InsightsBenchCase {
  engine: string;
  case: string;
  medianMs: number;
  p95Ms: number;
}

export async function benchInsights(log: (line: string) => void = console.log): Promise<InsightsBenchCase[]> {
  const results: InsightsBenchCase[] = [];
  for (const engine of ENGINES) {
    await withScratchDatabase(engine, "insights", async (url) => {
      log(`insights on ${engine}: ${DECISIONS.toLocaleString("en-US")} decisions over 30 days`);
      await deployMigrations(url);
      const db = await getDb(url);
      await recordReviewTargets(db);
      await generate(db, DECISIONS, log);
      const viewer = { timeZone: "Europe/Berlin", seesNames: true };
      const cases: [string, Record<string, string>][] = [
        ["30 days, no filter", { period: "30" }],
        ["30 days, one agent", { period: "30", agentId: "agent_1" }],
        ["30 days, risk high", { period: "30", risk: "high" }],
        ["7 days, one tool", { period: "7", agentId: "agent_2", toolName: "tool_8" }],
        // A resource prefix reads the calls' own rows: one customer (1 in 5,000), and a broad prefix (111 customers, 2% of the calls).
        ["30 days, one customer cust_4242 (raw rows)", { period: "30", resourcePrefix: "cust_4242" }],
        ["30 days, prefix cust_42: 2% of calls (raw rows)", { period: "30", resourcePrefix: "cust_42" }],
      ];
      for (const [name, params] of cases) {
        const query = insightsQuery.parse(params);
        const { stats, last } = await measure(() => readInsights(query, viewer, { db }), {
          warmup: 2,
          minSamples: 5,
          maxSamples: 20,
          budgetMs: 5_000,
        });
        results.push({ engine, case: name, medianMs: stats.median, p95Ms: stats.p95 });
        log(
          `  ${name.padEnd(44)} median ${stats.median.toFixed(1).padStart(7)} ms  p95 ${stats.p95.toFixed(1).padStart(7)} ms  ` +
            `(${last.outcomes.decided.toLocaleString("en-US")} decided, ${last.reviewers.length} reviewers; ${(stats.median / TARGET_MS).toFixed(2)}× the ${TARGET_MS} ms target)`,
        );
      }
      await disconnectDb(url);
    });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--json")) {
    // Under bench/run.ts: progress on stderr, the figures as one JSON line on stdout.
    const lines: string[] = [];
    const cases = await benchInsights((line) => {
      console.error(line);
      lines.push(line);
    });
    console.log(JSON.stringify({ decisions: DECISIONS, targetMs: TARGET_MS, cases, lines }));
  } else await benchInsights();
  process.exit(0);
}
