/**
 * suspended_thread_totals: the store's suspended_threads counted per agent key (threads, calls) by
 * triggers, summed over its slots. On SQLite and PostgreSQL, a long random sequence of snapshot rows
 * written as the store writes them (waiting runs of agents in threads and without one, runs moving
 * on, ending, rewritten with new call counts, removed; one statement for several) is checked after
 * every step against suspended_threads counted here; the installer's refill is checked against the
 * same; and on PostgreSQL eight connections writing waiting runs of shared threads at once, a run per
 * transaction as the store writes, leave it exact, without a deadlock.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { installDerivedTriggers } from "../../lib/db/derived-tables.ts";
import { useTestDatabase } from "../helpers/databases.ts";

/** A small PRNG, so a failure can be replayed. */
function random(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

type Totals = Record<string, { threads: number; calls: number }>;

async function kept(url: string): Promise<Totals> {
  const rows = await (await getDb(url)).suspendedThreadTotal.findMany();
  const totals: Totals = {};
  for (const row of rows) {
    const total = (totals[row.agentId] ??= { threads: 0, calls: 0 });
    total.threads += row.threads;
    total.calls += row.calls;
  }
  // An agent key whose last thread left keeps its rows at 0: compared as absent.
  return Object.fromEntries(Object.entries(totals).filter(([, total]) => total.threads !== 0 || total.calls !== 0));
}

async function counted(url: string): Promise<Totals> {
  const totals: Totals = {};
  for (const row of await (await getDb(url)).suspendedThread.findMany()) {
    const total = (totals[row.agentId] ??= { threads: 0, calls: 0 });
    total.threads += 1;
    total.calls += row.calls;
  }
  return totals;
}

const AGENTS = ["refunds", "billing", "shipping"];
const THREADS = ["t-a", "t-b", "t-c", "t-d", null];

describe.each(["sqlite", "postgres"] as const)("suspended_thread_totals on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind);

  it("counts every agent key's threads and calls through a random sequence of snapshot writes", async () => {
    const db = await getDb(database.url);
    const next = random(41);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const runIds: string[] = [];
    const row = (runId: string) => ({
      workflowName: "agentic-loop",
      runId,
      status: next() < 0.8 ? "suspended" : pick(["running", "success"]),
      agentId: next() < 0.9 ? pick(AGENTS) : null,
      threadId: pick(THREADS),
      toolCallCount: 1 + Math.floor(next() * 3),
      snapshot: "{}",
      createdAt: new Date(Date.UTC(2026, 11, 1)),
      updatedAt: new Date(Date.UTC(2026, 11, 1, 0, Math.floor(next() * 600))),
    });
    for (let step = 0; step < 160; step++) {
      const choice = next();
      if (choice < 0.4 || runIds.length < 3) {
        const runId = `run-${step}`;
        await db.workflowSnapshot.create({ data: row(runId) });
        runIds.push(runId);
      } else if (choice < 0.8) {
        // A rewrite: the run moves on, waits again with other calls, or in another thread.
        const { workflowName, runId, ...data } = row(pick(runIds));
        await db.workflowSnapshot.update({ where: { workflowName_runId: { workflowName, runId } }, data });
      } else if (choice < 0.93) {
        const runId = pick(runIds);
        await db.workflowSnapshot.delete({ where: { workflowName_runId: { workflowName: "agentic-loop", runId } } });
        runIds.splice(runIds.indexOf(runId), 1);
      } else {
        // One statement for several runs: every waiting run of an agent ends.
        await db.workflowSnapshot.updateMany({ where: { agentId: pick(AGENTS), status: "suspended" }, data: { status: "success" } });
      }
      expect(await kept(database.url), `after step ${step}`).toEqual(await counted(database.url));
    }
    expect(Object.keys(await counted(database.url)).length).toBeGreaterThan(1);
    // The installer's refill computes the same from suspended_threads.
    const before = await kept(database.url);
    await db.suspendedThreadTotal.updateMany({ data: { threads: 999 } });
    await disconnectDb(database.url);
    await dropTrigger(kind, database.url);
    expect(await installDerivedTriggers(database.url)).toBe(true);
    expect(await kept(database.url)).toEqual(before);
    await (await getDb(database.url)).workflowSnapshot.deleteMany();
    expect(await kept(database.url)).toEqual({});
  });

  it.runIf(kind === "postgres")("stays exact with eight connections writing waiting runs of the same threads at once", async () => {
    await (await getDb(database.url)).workflowSnapshot.deleteMany();
    await disconnectDb(database.url);
    const clients = Array.from({ length: 8 }, () => new pg.Client({ connectionString: database.url }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      await Promise.all(
        clients.map(async (client, c) => {
          for (let i = 0; i < 25; i++) {
            // A run starts waiting, then another of the thread is rewritten with one call more, one
            // run per transaction as the store writes them.
            await client.query(
              `INSERT INTO "workflow_snapshots" ("workflow_name", "run_id", "status", "agent_id", "thread_id", "tool_call_count", "snapshot", "created_at", "updated_at")
               VALUES ('agentic-loop', $1, 'suspended', $2, $3, $4, '{}', now(), now())`,
              [`run-${c}-${i}`, AGENTS[i % 3], THREADS[(c + i) % 4], 1 + (i % 3)],
            );
            if (i > 0)
              await client.query(
                `UPDATE "workflow_snapshots" SET "tool_call_count" = "tool_call_count" + 1, "updated_at" = now() WHERE "run_id" = $1`,
                [`run-${c}-${i - 1}`],
              );
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
    const totals = await counted(database.url);
    expect(totals[""]).toEqual({ threads: 4, calls: expect.any(Number) });
    expect(await kept(database.url)).toEqual(totals);
  });
});

async function dropTrigger(kind: "sqlite" | "postgres", url: string) {
  const statement =
    kind === "sqlite"
      ? `DROP TRIGGER "suspended_threads_totals_insert"`
      : `DROP TRIGGER "suspended_threads_totals_added" ON "suspended_threads"`;
  if (kind === "sqlite") {
    const db = new Database(sqliteFilePath(url));
    db.exec(statement);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(statement);
  await client.end();
}
