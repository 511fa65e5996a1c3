/**
 * waiting_call_risks (the console's migration of that name): one row per waiting call a rule gave a
 * risk, with its run's columns, kept by triggers. On SQLite and PostgreSQL, with the real demo agents
 * and rules, the table is compared after each change with what it must hold, computed here from
 * call_rule_matches and workflow_snapshots (the run's pending calls parsed in JavaScript): as calls
 * are rated, decided, rewritten and re-rated; and the migration fills in the calls rated before it.
 * waiting_thread_risks, the same rows summed per thread and risk, is compared with their sums each time,
 * and waiting_risk_totals with those summed per risk.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { deployMigrations } from "../../lib/db/migrate.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { riskRank } from "../../lib/risk.ts";
import { prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { createRule } from "../../lib/rules/store.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { keptRiskTotals, riskTotalsOf } from "../helpers/risk-totals.ts";

type Row = { workflowName: string; runId: string; toolCallId: string; risk: string; riskRank: number; threadKey: string };
type Times = { agentId: string; createdAt: number; updatedAt: number; toolCallCount: number };

/** What waiting_call_risks must hold: every match with a risk whose call is in its suspended agent run's tool_calls. */
async function expectedRows(url: string): Promise<Array<Row & Times>> {
  const db = await getDb(url);
  const matches = await db.callRuleMatch.findMany({ where: { risk: { not: null } } });
  const runs = await db.workflowSnapshot.findMany({
    where: { status: "suspended", agentId: { not: null }, runId: { in: matches.map((match) => match.runId) } },
    select: {
      workflowName: true,
      runId: true,
      threadId: true,
      agentId: true,
      createdAt: true,
      updatedAt: true,
      toolCalls: true,
      toolCallCount: true,
    },
  });
  return matches.flatMap((match) =>
    runs
      .filter((run) => run.runId === match.runId)
      .filter((run) =>
        (JSON.parse(run.toolCalls ?? "[]") as Array<{ toolCallId?: string }>).some((call) => call.toolCallId === match.toolCallId),
      )
      .map((run) => ({
        workflowName: run.workflowName,
        runId: run.runId,
        toolCallId: match.toolCallId,
        risk: match.risk!,
        riskRank: riskRank(match.risk as "low"),
        threadKey: run.threadId ?? "",
        agentId: run.agentId!,
        createdAt: run.createdAt.getTime(),
        updatedAt: run.updatedAt.getTime(),
        toolCallCount: run.toolCallCount,
      })),
  );
}

async function actualRows(url: string): Promise<Array<Row & Times>> {
  const rows = await (await getDb(url)).waitingCallRisk.findMany();
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.getTime(), updatedAt: row.updatedAt.getTime() }));
}

const byKey = (rows: Array<Row & Times>) =>
  [...rows].sort((a, b) => `${a.runId}/${a.toolCallId}`.localeCompare(`${b.runId}/${b.toolCallId}`));

async function expectKept(url: string, count: number) {
  const expected = byKey(await expectedRows(url));
  expect(expected).toHaveLength(count);
  expect(byKey(await actualRows(url))).toEqual(expected);
  expect(await threadRisks(url)).toEqual(threadRisksOf(expected));
  expect(await keptRiskTotals(url)).toEqual(riskTotalsOf(threadRisksOf(expected)));
}

/** waiting_thread_risks as it must be: the rows per thread and risk, each run once. */
function threadRisksOf(rows: Array<Row & Times>) {
  const byThreadRisk = new Map<
    string,
    { threadKey: string; risk: string; riskRank: number; runs: Set<string>; calls: number; oldestAt: number }
  >();
  for (const row of rows) {
    const key = `${row.threadKey}/${row.risk}`;
    const entry = byThreadRisk.get(key) ?? {
      threadKey: row.threadKey,
      risk: row.risk,
      riskRank: row.riskRank,
      runs: new Set(),
      calls: 0,
      oldestAt: Infinity,
    };
    if (!entry.runs.has(row.runId)) entry.calls += row.toolCallCount;
    entry.runs.add(row.runId);
    entry.oldestAt = Math.min(entry.oldestAt, row.updatedAt);
    byThreadRisk.set(key, entry);
  }
  return [...byThreadRisk.values()]
    .map((entry) => ({ ...entry, runs: entry.runs.size }))
    .sort((a, b) => `${a.threadKey}/${a.risk}`.localeCompare(`${b.threadKey}/${b.risk}`));
}

async function threadRisks(url: string) {
  const rows = await (await getDb(url)).waitingThreadRisk.findMany();
  return rows
    .map((row) => ({ ...row, oldestAt: row.oldestAt.getTime() }))
    .sort((a, b) => `${a.threadKey}/${a.risk}`.localeCompare(`${b.threadKey}/${b.risk}`));
}

async function rules(url: string) {
  const db = await getDb(url);
  const rule = (name: string, pattern: string, risk: string) =>
    createRule(
      db,
      ruleInputSchema.parse({
        name,
        enabled: true,
        agentId: "refunds",
        conditions: [{ path: "orderId", op: "matches", value: pattern }],
        effect: "ask",
        risk,
      }),
      "admin@test.example",
    );
  await rule("payouts", "^ORD-9", "critical");
  await rule("big orders", "^ORD-8", "high");
}

const UNDO = {
  sqlite: [
    `DROP TRIGGER "call_rule_matches_waiting_risk_insert"`,
    `DROP TRIGGER "call_rule_matches_waiting_risk_update"`,
    `DROP TRIGGER "call_rule_matches_waiting_risk_delete"`,
    `DROP TRIGGER "workflow_snapshots_waiting_risks_insert"`,
    `DROP TRIGGER "workflow_snapshots_waiting_risks_update"`,
    `DROP TRIGGER "workflow_snapshots_waiting_risks_delete"`,
    `DROP TABLE "waiting_call_risks"`,
  ],
  postgres: [
    // The demo agents' storage keeps its own connections open: dropping a trigger needs the table to itself.
    `SELECT pg_terminate_backend("pid") FROM pg_stat_activity WHERE "datname" = current_database() AND "pid" <> pg_backend_pid()`,
    `DROP TABLE "waiting_call_risks"`,
    `DROP FUNCTION call_rule_matches_add_waiting_risks() CASCADE`,
    `DROP FUNCTION call_rule_matches_remove_waiting_risks() CASCADE`,
    `DROP FUNCTION call_rule_matches_move_waiting_risks() CASCADE`,
    `DROP FUNCTION workflow_snapshots_keep_waiting_risks() CASCADE`,
    `DROP FUNCTION waiting_call_risk_rank(TEXT)`,
  ],
};

async function runSql(kind: "sqlite" | "postgres", url: string, statements: string[]) {
  if (kind === "sqlite") {
    const db = new Database(sqliteFilePath(url));
    for (const statement of statements) db.exec(statement);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const statement of statements) await client.query(statement);
  await client.end();
}

describe.each(["sqlite", "postgres"] as const)("waiting_call_risks on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("fills in the rated calls already waiting", async () => {
    {
      await rules(database.url);
      await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9201"));
      await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8201"));
      await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5201"));
      await recordWaitingCalls(database.url, prepareRuleMatches);
      await disconnectDb(database.url);
      // The database as it was before the migration.
      await runSql(kind, database.url, [
        ...UNDO[kind],
        `DELETE FROM "_prisma_migrations" WHERE "migration_name" LIKE '%_waiting_call_risks'`,
      ]);
      expect((await deployMigrations(database.url)).applied).toEqual([expect.stringMatching(/_waiting_call_risks$/)]);
      await expectKept(database.url, 2);
      // Unrated again, for the next test.
      await (await getDb(database.url)).callRuleMatch.deleteMany();
      await expectKept(database.url, 0);
    }
  });

  it("holds exactly the waiting rated calls as calls are rated, decided, rewritten and re-rated", async () => {
    {
      await rules(database.url);
      const critical = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9101"));
      const high = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8101"));
      const unrated = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5101"));
      await expectKept(database.url, 0); // waiting, not rated yet
      await recordWaitingCalls(database.url, prepareRuleMatches);
      await expectKept(database.url, 2);

      // The run rewritten (its waiting time moves): the row follows.
      const db = await getDb(database.url);
      await db.workflowSnapshot.updateMany({
        where: { runId: high.runId, agentId: { not: null } },
        data: { updatedAt: new Date(Date.now() - 90 * 60_000) },
      });
      await expectKept(database.url, 2);

      // Decided through the agent: the run moves on, the call no longer waits.
      await decide({ action: "approve", ...high.ref }, { reviewer: "rita@test.example", databaseUrl: database.url });
      await expectKept(database.url, 1);
      expect((await actualRows(database.url)).map((row) => row.runId)).toEqual([critical.runId]);

      // Every match settled in one statement (no call or risk changes), then one moved off its call and back.
      await db.callRuleMatch.updateMany({ data: { settledAt: new Date() } });
      await expectKept(database.url, 1);
      await db.callRuleMatch.updateMany({ where: { runId: critical.runId }, data: { toolCallId: "call_not_waiting" } });
      await expectKept(database.url, 0);
      await db.callRuleMatch.updateMany({ where: { toolCallId: "call_not_waiting" }, data: { toolCallId: critical.ref.toolCallId } });
      await expectKept(database.url, 1);

      // Re-rated (as applying a rule replaces a match), then unrated (the match removed).
      await db.callRuleMatch.update({ where: { runId_toolCallId: critical.ref }, data: { risk: "low" } });
      await expectKept(database.url, 1);
      expect((await actualRows(database.url))[0]).toMatchObject({ risk: "low", riskRank: 1 });
      await db.callRuleMatch.delete({ where: { runId_toolCallId: critical.ref } });
      await expectKept(database.url, 0);

      // A match for a call that does not wait (decided long ago) adds nothing; the unrated run stays out.
      await db.callRuleMatch.create({
        data: { runId: unrated.runId, toolCallId: "call_decided_long_ago", risk: "critical", matchedAt: new Date() },
      });
      await expectKept(database.url, 0);
    }
  });
});
