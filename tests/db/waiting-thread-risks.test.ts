/**
 * waiting_thread_risks: waiting_call_risks summed per thread and risk by triggers, each run once per
 * risk however many of its calls have it, with the oldest waiting start. On SQLite and PostgreSQL,
 * a long random sequence of what the triggers above it do to waiting_call_risks (a call rated, a
 * call's row removed, a run rewritten: all its rows out and back with new times) is checked after
 * every step against the sums computed here, and a DELETE of every row at once; and on PostgreSQL two
 * transactions rating two calls of one run at once count the run once (they take turns on the run's
 * waiting_run_risks row). waiting_risk_totals, the thread rows summed per risk, is checked at every
 * step too.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { RISKS, riskRank } from "../../lib/risk.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { keptRiskTotals, riskTotalsOf } from "../helpers/risk-totals.ts";

type CallRow = { runId: string; toolCallId: string; risk: string; threadKey: string; updatedAt: Date; toolCallCount: number };

function expectedSums(rows: CallRow[]) {
  const sums = new Map<string, { threadKey: string; risk: string; riskRank: number; runs: Set<string>; calls: number; oldestAt: number }>();
  for (const row of rows) {
    const key = `${row.threadKey}/${row.risk}`;
    const entry = sums.get(key) ?? {
      threadKey: row.threadKey,
      risk: row.risk,
      riskRank: riskRank(row.risk as "low"),
      runs: new Set(),
      calls: 0,
      oldestAt: Infinity,
    };
    if (!entry.runs.has(row.runId)) entry.calls += row.toolCallCount;
    entry.runs.add(row.runId);
    entry.oldestAt = Math.min(entry.oldestAt, row.updatedAt.getTime());
    sums.set(key, entry);
  }
  return [...sums.values()].map((entry) => ({ ...entry, runs: entry.runs.size })).sort(byKey);
}
const byKey = (a: { threadKey: string; risk: string }, b: { threadKey: string; risk: string }) =>
  `${a.threadKey}/${a.risk}`.localeCompare(`${b.threadKey}/${b.risk}`);

/** A small PRNG, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

describe.each(["sqlite", "postgres"] as const)("waiting_thread_risks on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind);

  it("sums every thread's runs, calls and oldest start per risk through a random sequence of changes", async () => {
    const db = await getDb(database.url);
    const next = random(27);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    // 12 runs over 3 threads and the group without one; each run has up to 3 calls.
    const runs = Array.from({ length: 12 }, (_, i) => ({
      runId: `run-${i}`,
      threadKey: ["t-a", "t-b", "t-c", ""][i % 4]!,
      updatedAt: new Date(Date.UTC(2026, 11, 1, 0, i)),
      toolCallCount: 1 + (i % 3),
    }));
    let rows: CallRow[] = [];
    const asRow = (row: CallRow) => ({
      workflowName: "agentic-loop",
      ...row,
      riskRank: riskRank(row.risk as "low"),
      agentId: "refunds",
      createdAt: new Date(Date.UTC(2026, 10, 1)),
    });
    const insert = (row: CallRow) => db.waitingCallRisk.create({ data: asRow(row) });
    for (let step = 0; step < 150; step++) {
      const run = pick(runs);
      const own = rows.filter((row) => row.runId === run.runId);
      const choice = next();
      if (choice >= 0.93) {
        // One statement across runs and threads, as a rule's matches go together: every row of a risk,
        // or a new call rated on each of several runs.
        if (choice >= 0.965) {
          const risk = pick(RISKS);
          await db.waitingCallRisk.deleteMany({ where: { risk } });
          rows = rows.filter((row) => row.risk !== risk);
        } else {
          const added = runs.flatMap((candidate) => {
            const calls = rows.filter((row) => row.runId === candidate.runId);
            if (calls.length >= candidate.toolCallCount || next() < 0.5) return [];
            const last = calls.length === 0 ? -1 : Math.max(...calls.map((row) => Number(row.toolCallId.slice(5))));
            const risk = pick(RISKS);
            return [
              {
                runId: candidate.runId,
                toolCallId: `call-${last + 1}`,
                risk,
                threadKey: candidate.threadKey,
                updatedAt: candidate.updatedAt,
                toolCallCount: candidate.toolCallCount,
              },
            ];
          });
          await db.waitingCallRisk.createMany({
            data: added.map(asRow),
          });
          rows.push(...added);
        }
      } else if (choice < 0.5 && own.length < run.toolCallCount) {
        const toolCallId = `call-${own.length === 0 ? 0 : Math.max(...own.map((row) => Number(row.toolCallId.slice(5)))) + 1}`;
        const row = {
          runId: run.runId,
          toolCallId,
          risk: pick(RISKS),
          threadKey: run.threadKey,
          updatedAt: run.updatedAt,
          toolCallCount: run.toolCallCount,
        };
        await insert(row);
        rows.push(row);
      } else if (choice < 0.8 && own.length > 0) {
        const gone = pick(own);
        await db.waitingCallRisk.delete({
          where: { workflowName_runId_toolCallId: { workflowName: "agentic-loop", runId: gone.runId, toolCallId: gone.toolCallId } },
        });
        rows = rows.filter((row) => row !== gone);
      } else if (own.length > 0) {
        // A snapshot write: the run's rows go and come back with its new waiting start, in one transaction.
        run.updatedAt = new Date(run.updatedAt.getTime() + Math.floor(next() * 7 - 3) * 60_000);
        const rewritten = own.map((row) => ({ ...row, updatedAt: run.updatedAt }));
        await db.$transaction([
          db.waitingCallRisk.deleteMany({ where: { runId: run.runId } }),
          // One INSERT of all its rows, as the snapshot trigger writes them.
          db.waitingCallRisk.createMany({
            data: rewritten.map(asRow),
          }),
        ]);
        rows = [...rows.filter((row) => row.runId !== run.runId), ...rewritten];
      }
      const actual = (await db.waitingThreadRisk.findMany()).map((row) => ({ ...row, oldestAt: row.oldestAt.getTime() })).sort(byKey);
      expect(actual, `after step ${step}`).toEqual(expectedSums(rows));
      expect(await keptRiskTotals(database.url), `totals after step ${step}`).toEqual(riskTotalsOf(expectedSums(rows)));
    }
    expect(rows.length).toBeGreaterThan(5);
    await db.waitingCallRisk.deleteMany();
    expect(await db.waitingThreadRisk.count()).toBe(0);
    expect(await keptRiskTotals(database.url)).toEqual({});
    expect(await db.waitingRunRisk.count()).toBe(0);
  });

  it.runIf(kind === "postgres")("counts a run once when two transactions rate two of its calls at once", async () => {
    await disconnectDb(database.url);
    const [first, second] = [new pg.Client({ connectionString: database.url }), new pg.Client({ connectionString: database.url })];
    await Promise.all([first.connect(), second.connect()]);
    const rate = (client: pg.Client, toolCallId: string) =>
      client.query(
        `INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
         VALUES ('agentic-loop', 'run-parallel', $1, 'high', 3, 't-parallel', 'refunds', now(), now(), 2)`,
        [toolCallId],
      );
    try {
      await Promise.all([first.query("BEGIN"), second.query("BEGIN")]);
      await rate(first, "call-1");
      // The second waits on the run's waiting_run_risks row until the first commits, then adds to it.
      const waiting = rate(second, "call-2");
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.query("COMMIT");
      await waiting;
      await second.query("COMMIT");
      const { rows } = await first.query(`SELECT "runs", "calls" FROM "waiting_thread_risks" WHERE "thread_key" = 't-parallel'`);
      expect(rows).toEqual([{ runs: 1, calls: 2 }]);
      // Both changed the risk's total row too, one after the other.
      const totals = await first.query(`SELECT "threads", "calls" FROM "waiting_risk_totals" WHERE "risk" = 'high'`);
      expect(totals.rows).toEqual([{ threads: 1, calls: 2 }]);
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});
