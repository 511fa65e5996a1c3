/**
 * Child of bench/run.ts: rules over the past, on a scratch SQLite file and a scratch PostgreSQL
 * database holding `size` decisions of the last 30 days (bench/decision-history.ts; 100,000, or
 * 10,000 with --quick):
 * - a rule's backtest (lib/rules/backtest.ts), over 30 days: one that names no agent or tool (every
 *   decision of the period is read and replayed: the worst case) and one of an agent and tool;
 * - the suggested rules (lib/rules/proposals.ts) with their defaults (30 days, 20 calls, never wrong).
 * Answers with one JSON line: { sqlite, pg } each { size, generateMs, backtestAll, backtestScoped, proposals, ... }.
 * Usage: tsx bench/history-child.ts [--quick]
 */
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { backtestRule } from "../lib/rules/backtest.ts";
import { proposeRules } from "../lib/rules/proposals.ts";
import { ruleInputSchema } from "../lib/rules/validations.ts";
import { generateDecisionHistory } from "./decision-history.ts";
import { withScratchDatabase } from "./scratch-database.ts";
import { measure } from "./timing.ts";

const quick = process.argv.includes("--quick");
const size = quick ? 10_000 : 100_000;
const samples = { warmup: 1, minSamples: quick ? 2 : 5, maxSamples: quick ? 2 : 5, budgetMs: 0 };

const rule = (fields: object) => {
  const { position: _position, ...parsed } = ruleInputSchema.parse({ name: "bench", effect: "approve", ...fields });
  return parsed;
};
const everyAgent = rule({ conditions: [{ path: "amount", op: "<=", value: 250 }] });
const oneTool = rule({ agentId: "refunds", toolName: "issueRefund", conditions: [{ path: "amount", op: "<=", value: 250 }] });

async function measureOn(kind: "sqlite" | "pg") {
  return withScratchDatabase(kind, "history", async (url) => {
    await deployMigrations(url);
    const started = performance.now();
    await generateDecisionHistory(url, size);
    const generateMs = performance.now() - started;
    const db = await getDb(url);
    const all = await measure(() => backtestRule(db, everyAgent, { days: 30 }), samples);
    const scoped = await measure(() => backtestRule(db, oneTool, { days: 30 }), samples);
    const proposals = await measure(
      () =>
        proposeRules(db, {
          days: 30,
          minCalls: 20,
          maxWrongShare: 0,
          agentId: null,
          toolName: null,
          resourcePrefix: null,
          page: 1,
          pageSize: 10,
        }),
      { ...samples, minSamples: quick ? 2 : 3, maxSamples: quick ? 2 : 3 },
    );
    await disconnectDb(url);
    return {
      size,
      generateMs,
      backtestAll: all.stats,
      backtestAllMatched: all.last.matched,
      backtestScoped: scoped.stats,
      backtestScopedMatched: scoped.last.matched,
      proposals: proposals.stats,
      proposalsConsidered: proposals.last.considered,
      proposalsOffered: proposals.last.total,
    };
  });
}

console.log(JSON.stringify({ sqlite: await measureOn("sqlite"), pg: await measureOn("pg") }));
process.exit(0);
