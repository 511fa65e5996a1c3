/**
 * The contract (../shared/spec/list-suspended-runs.md), case by case, with real Mastra agents on our
 * snapshot store, on SQLite and on PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, disconnectDb } from "../../lib/db/client.ts";
import { childCommand } from "../helpers/child-scripts.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { createTestMastra, effects, readAnswer, suspendRun, type TestMastra } from "../helpers/agents.ts";

const run = promisify(execFile);

describe.each(["sqlite", "postgres"] as const)("listSuspendedRuns contract on %s", (kind) => {
  let database: TestDatabase;
  let mastra: TestMastra;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastra = await createTestMastra(database.url);
  });

  afterAll(async () => {
    await disconnectDb(database.url);
    await database.drop();
  });

  /** A fresh thread and resource, so each test sees only its own runs. */
  const conversation = () => ({ thread: `thread-${randomUUID()}`, resource: `resource-${randomUUID()}` });

  async function snapshotRowCount(runId: string) {
    return (await getDb(database.url)).workflowSnapshot.count({ where: { runId } });
  }

  it("reports an approval run in the full AgentRun shape", async () => {
    const memory = conversation();
    const before = new Date();
    const call = await suspendRun(mastra, "teller", "transfer 120 from checking to savings", memory);

    const { runs, total } = await mastra.getAgent("teller").listSuspendedRuns({ resourceId: memory.resource });

    expect(total).toBe(1);
    expect(runs).toEqual([
      {
        runId: call.runId,
        status: "suspended",
        threadId: memory.thread,
        resourceId: memory.resource,
        suspendedAt: expect.any(Date),
        toolCalls: [
          {
            toolCallId: call.toolCallId,
            toolName: "transfer",
            args: { amount: 120, from: "checking", to: "savings" },
            requiresApproval: true,
          },
        ],
      },
    ]);
    expect(runs[0]!.toolCalls[0]).not.toHaveProperty("suspendPayload");
    expect(runs[0]!.suspendedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(runs[0]!.suspendedAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("reports a suspend() run with requiresApproval false and the tool's payload", async () => {
    const memory = conversation();
    const call = await suspendRun(mastra, "teller", "ask the delivery window", memory);

    const { runs } = await mastra.getAgent("teller").listSuspendedRuns({ threadId: memory.thread });

    expect(runs).toHaveLength(1);
    expect(runs[0]!.toolCalls).toEqual([
      {
        toolCallId: call.toolCallId,
        toolName: "askQuestion",
        requiresApproval: false,
        suspendPayload: { question: "What about the delivery window?", topic: "the delivery window" },
      },
    ]);
    expect(runs[0]!.toolCalls[0]).not.toHaveProperty("args");
  });

  it("filters by thread, by resource, and by both", async () => {
    const resource = `resource-${randomUUID()}`;
    const threads = [`thread-${randomUUID()}`, `thread-${randomUUID()}`];
    const otherResource = `resource-${randomUUID()}`;
    const a = await suspendRun(mastra, "teller", "transfer 1 from a to b", { thread: threads[0]!, resource });
    const b = await suspendRun(mastra, "teller", "transfer 2 from a to b", { thread: threads[1]!, resource });
    // Same thread id under another resource: only the combined filter tells them apart.
    const c = await suspendRun(mastra, "teller", "transfer 3 from a to b", { thread: threads[0]!, resource: otherResource });
    const teller = mastra.getAgent("teller");
    const ids = async (options: Parameters<typeof teller.listSuspendedRuns>[0]) => {
      const { runs, total } = await teller.listSuspendedRuns(options);
      expect(total).toBe(runs.length);
      return runs.map((r) => r.runId).sort();
    };

    expect(await ids({ resourceId: resource })).toEqual([a.runId, b.runId].sort());
    expect(await ids({ threadId: threads[0] })).toEqual([a.runId, c.runId].sort());
    expect(await ids({ threadId: threads[0], resourceId: resource })).toEqual([a.runId]);
    expect(await ids({ threadId: threads[1], resourceId: otherResource })).toEqual([]);
  });

  it("pages with an accurate total, and returns everything unless both perPage and page are given", async () => {
    const resource = `resource-${randomUUID()}`;
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      created.push(
        (await suspendRun(mastra, "teller", `transfer ${i + 1} from a to b`, { thread: `thread-${randomUUID()}`, resource })).runId,
      );
    }
    const teller = mastra.getAgent("teller");

    const pages = await Promise.all([0, 1, 2, 3].map((page) => teller.listSuspendedRuns({ resourceId: resource, perPage: 2, page })));
    expect(pages.map((p) => p.runs.length)).toEqual([2, 2, 1, 0]);
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5, 5]);
    expect(pages.flatMap((p) => p.runs.map((r) => r.runId)).sort()).toEqual([...created].sort());
    // Newest first: the last run created leads page 0.
    expect(pages[0]!.runs[0]!.runId).toBe(created.at(-1));

    for (const options of [{ perPage: 2 }, { page: 1 }, {}]) {
      const { runs, total } = await teller.listSuspendedRuns({ resourceId: resource, ...options });
      expect(total).toBe(5);
      expect(runs).toHaveLength(5);
    }
  });

  it.each([0, -1, 1.5])("rejects %s as perPage (and, unless 0, as page)", async (bad) => {
    const teller = mastra.getAgent("teller");
    await expect(teller.listSuspendedRuns({ perPage: bad as number, page: 0 })).rejects.toThrow(/perPage/);
    if (bad !== 0) await expect(teller.listSuspendedRuns({ perPage: 10, page: bad as number })).rejects.toThrow(/page/);
  });

  it("filters on creation time with fromDate and toDate, both inclusive", async () => {
    const resource = `resource-${randomUUID()}`;
    const early = await suspendRun(mastra, "teller", "transfer 5 from a to b", { thread: `thread-${randomUUID()}`, resource });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const boundary = new Date();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const late = await suspendRun(mastra, "teller", "transfer 6 from a to b", { thread: `thread-${randomUUID()}`, resource });
    const teller = mastra.getAgent("teller");
    const ids = async (options: object) => (await teller.listSuspendedRuns({ resourceId: resource, ...options })).runs.map((r) => r.runId);

    expect(await ids({ fromDate: boundary })).toEqual([late.runId]);
    expect(await ids({ toDate: boundary })).toEqual([early.runId]);
    expect(await ids({ fromDate: new Date(Date.now() - 60_000), toDate: new Date() })).toEqual([late.runId, early.runId]);
    expect(await ids({ fromDate: new Date(Date.now() + 60_000) })).toEqual([]);

    const row = await (
      await getDb(database.url)
    ).workflowSnapshot.findUniqueOrThrow({
      where: { workflowName_runId: { workflowName: "agentic-loop", runId: late.runId } },
    });
    expect(await ids({ fromDate: row.createdAt, toDate: row.createdAt })).toEqual([late.runId]);
  });

  it("scopes runs to the agent that started them", async () => {
    const memory = conversation();
    const mine = await suspendRun(mastra, "teller", "transfer 7 from a to b", memory);
    const theirs = await suspendRun(mastra, "auditor", "transfer 8 from a to b", conversation());

    const tellerRuns = await mastra.getAgent("teller").listSuspendedRuns({});
    const auditorRuns = await mastra.getAgent("auditor").listSuspendedRuns({});

    expect(tellerRuns.runs.map((r) => r.runId)).toContain(mine.runId);
    expect(tellerRuns.runs.map((r) => r.runId)).not.toContain(theirs.runId);
    expect(auditorRuns.runs.map((r) => r.runId)).toEqual([theirs.runId]);
    expect(auditorRuns.total).toBe(1);
  });

  it("approving runs the tool once, completes the run and deletes its snapshots", async () => {
    const memory = conversation();
    const call = await suspendRun(mastra, "teller", "transfer 250 from ops to payroll", memory);
    expect(await snapshotRowCount(call.runId)).toBe(2); // agentic-loop + executionWorkflow
    const ran = effects.length;

    const answer = await readAnswer(await mastra.getAgent("teller").approveToolCall({ runId: call.runId, toolCallId: call.toolCallId }));

    expect(effects.slice(ran)).toEqual([{ agentId: "teller", toolName: "transfer", input: { amount: 250, from: "ops", to: "payroll" } }]);
    expect(answer).toContain('"transferred":250');
    expect(await snapshotRowCount(call.runId)).toBe(0);
    expect((await mastra.getAgent("teller").listSuspendedRuns({ threadId: memory.thread })).total).toBe(0);
  });

  it("declining with a reason skips the tool, tells the model why, and deletes the snapshots", async () => {
    const memory = conversation();
    const call = await suspendRun(mastra, "teller", "transfer 9999 from ops to unknown", memory);
    const ran = effects.length;

    const answer = await readAnswer(
      await mastra.getAgent("teller").declineToolCall({ runId: call.runId, toolCallId: call.toolCallId, reason: "Recipient not verified" }),
    );

    expect(effects.length).toBe(ran);
    expect(answer).toContain("Recipient not verified");
    expect(await snapshotRowCount(call.runId)).toBe(0);
  });

  it("resuming a suspend() run hands the data to the tool and deletes the snapshots", async () => {
    const memory = conversation();
    const call = await suspendRun(mastra, "teller", "ask the parcel size", memory);
    const ran = effects.length;

    const answer = await readAnswer(await mastra.getAgent("teller").resumeStream({ answer: "large" }, { runId: call.runId }));

    expect(effects.slice(ran)).toEqual([
      { agentId: "teller", toolName: "askQuestion", input: { topic: "the parcel size" }, resumeData: { answer: "large" } },
    ]);
    expect(answer).toContain("large");
    expect(await snapshotRowCount(call.runId)).toBe(0);
  });

  it("discovers and completes a run suspended by another process that has exited", async () => {
    const memory = conversation();
    const { stdout } = await run(
      process.execPath,
      [...childCommand("suspend-in-child"), database.url, "teller", "transfer 42 from child to parent", memory.thread, memory.resource],
      { cwd: process.cwd(), timeout: 60_000 },
    );
    const child = JSON.parse(stdout.trim().split("\n").at(-1)!) as { runId: string; toolCallId: string };

    // A new Mastra in this process, as after a restart.
    const restarted = await createTestMastra(database.url);
    const { runs } = await restarted.getAgent("teller").listSuspendedRuns({ threadId: memory.thread });
    expect(runs.map((r) => [r.runId, r.toolCalls[0]?.toolCallId])).toEqual([[child.runId, child.toolCallId]]);

    const ran = effects.length;
    await readAnswer(await restarted.getAgent("teller").approveToolCall({ runId: child.runId, toolCallId: child.toolCallId }));
    expect(effects.slice(ran).map((e) => e.input)).toEqual([{ amount: 42, from: "child", to: "parent" }]);
    expect(await snapshotRowCount(child.runId)).toBe(0);
  });
  it("keeps the trigger-maintained per-agent and per-hour totals exact through everything above", async () => {
    const db = await getDb(database.url);
    const counted = await db.workflowSnapshot.groupBy({
      by: ["agentId"],
      where: { status: "suspended", agentId: { not: null } },
      _count: { _all: true },
    });
    const kept = await db.suspendedRunCount.findMany({ where: { runs: { gt: 0 } } });
    expect(Object.fromEntries(kept.map((row) => [row.agentId, row.runs]))).toEqual(
      Object.fromEntries(counted.map((row) => [row.agentId, row._count._all])),
    );
    expect(counted.length).toBeGreaterThan(0);

    const suspended = await db.workflowSnapshot.findMany({
      where: { status: "suspended", agentId: { not: null } },
      select: { agentId: true, createdAt: true },
    });
    const perHour = new Map<string, number>();
    for (const run of suspended) {
      const key = `${new Date(Math.floor(run.createdAt.getTime() / 3_600_000) * 3_600_000).toISOString()} ${run.agentId}`;
      perHour.set(key, (perHour.get(key) ?? 0) + 1);
    }
    const hours = await db.suspendedRunHour.findMany();
    expect(Object.fromEntries(hours.map((row) => [`${row.hour.toISOString()} ${row.agentId}`, row.runs]))).toEqual(
      Object.fromEntries(perHour),
    );
  });
});
