/**
 * Our cross-agent listing agrees with Mastra's own `agent.listSuspendedRuns()` for every agent and
 * filter, on a mixed data set built by real agents, on SQLite and on PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { InvalidListOptionsError, listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { createMastraStorage } from "../../lib/store/index.ts";
import { asContractRuns } from "../helpers/contract.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { createTestMastra, readAnswer, suspendRun, type TestAgentKey, type TestMastra } from "../helpers/agents.ts";

describe.each(["sqlite", "postgres"] as const)("cross-agent listing on %s", (kind) => {
  let database: TestDatabase;
  let mastra: TestMastra;
  const resources = [`acme-${randomUUID()}`, `globex-${randomUUID()}`, `initech-${randomUUID()}`];
  const threads = resources.flatMap((resource, r) => [0, 1].map((t) => ({ thread: `thread-${r}-${t}-${randomUUID()}`, resource })));
  let midpoint: Date;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastra = await createTestMastra(database.url);
    // Several pending runs on some threads, both kinds, two agents. Mastra holds a second stream on
    // a thread with a suspended run in the same instance, so each round runs on a fresh instance.
    const plan: Array<[TestAgentKey, string, number]> = [
      ["teller", "transfer 10 from a to b", 0],
      ["auditor", "ask the audit scope", 1],
      ["teller", "ask the account owner", 2],
      ["auditor", "transfer 20 from c to d", 3],
      ["teller", "transfer 30 from e to f", 4],
      ["teller", "transfer 40 from g to h", 5],
    ];
    for (let round = 0; round < 3; round++) {
      const instance = round === 0 ? mastra : await createTestMastra(database.url);
      for (const [agent, text, threadIndex] of plan.slice(0, 6 - round * 2)) {
        await suspendRun(instance, agent, text, threads[threadIndex]!);
      }
      if (round === 0) midpoint = new Date();
    }
    // Noise the listing must ignore: a finished run, and a suspended plain workflow (no agent).
    const finished = await suspendRun(mastra, "teller", "transfer 1 from x to y", threads[0]!);
    await readAnswer(await mastra.getAgent("teller").approveToolCall(finished));
    const storage = await createMastraStorage(database.url);
    await (await storage.getStore("workflows"))!.persistWorkflowSnapshot({
      workflowName: "nightly-export",
      runId: randomUUID(),
      resourceId: resources[0],
      snapshot: {
        runId: "x",
        status: "suspended",
        context: {},
        value: {},
        activePaths: [],
        serializedStepGraph: [],
        suspendedPaths: {},
        waitingPaths: {},
        resumeLabels: {},
        timestamp: Date.now(),
      } as never,
    });
  }, 180_000);

  afterAll(async () => {
    await disconnectDb(database.url);
    await database.drop();
  });

  const filters = () => [
    {},
    { threadId: threads[0]!.thread },
    { threadId: threads[1]!.thread },
    { resourceId: resources[0] },
    { resourceId: resources[1] },
    { threadId: threads[2]!.thread, resourceId: resources[1] },
    { threadId: threads[2]!.thread, resourceId: resources[0] },
    { fromDate: midpoint },
    { toDate: midpoint },
    { fromDate: midpoint, toDate: new Date(), resourceId: resources[2] },
    { perPage: 2, page: 0 },
    { perPage: 2, page: 1 },
    { perPage: 4, page: 1, resourceId: resources[0] },
    { perPage: 3, page: 9 },
    { perPage: 3 },
    { page: 2 },
  ];

  it.each(["teller", "auditor"] as const)("matches %s.listSuspendedRuns() for every filter", async (agent) => {
    const agentId = mastra.getAgent(agent).id;
    let compared = 0;
    for (const filter of filters()) {
      const theirs = await mastra.getAgent(agent).listSuspendedRuns(filter);
      const ours = await listSuspendedRuns({ ...filter, agentId }, database.url);
      expect(ours.runs.every((r) => r.agentId === agentId)).toBe(true);
      expect({ filter, ...asContractRuns(ours, "agent") }).toEqual({
        filter,
        total: theirs.total,
        runs: theirs.runs,
      });
      compared += theirs.runs.length;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it("lists every agent's runs when no agent is given, and nothing else", async () => {
    const all = await listSuspendedRuns({}, database.url);
    const teller = await mastra.getAgent("teller").listSuspendedRuns({});
    const auditor = await mastra.getAgent("auditor").listSuspendedRuns({});
    expect(all.total).toBe(teller.total + auditor.total);
    expect(all.total).toBe(12);
    expect(all.runs.map((r) => r.runId).sort()).toEqual([...teller.runs, ...auditor.runs].map((r) => r.runId).sort());
    // Both kinds are there.
    expect(new Set(all.runs.map((r) => r.toolCalls[0]!.requiresApproval))).toEqual(new Set([true, false]));
    // Threads with several pending runs are there.
    const perThread = new Map<string, number>();
    for (const run of all.runs) perThread.set(run.threadId!, (perThread.get(run.threadId!) ?? 0) + 1);
    expect(Math.max(...perThread.values())).toBe(3);
  });

  it("counts and pages in the database without reading snapshot JSON", async () => {
    const page = await listSuspendedRuns({ perPage: 5, page: 2 }, database.url);
    expect(page.total).toBe(12);
    expect(page.runs).toHaveLength(2);
    const db = await getDb(database.url);
    expect(await db.workflowSnapshot.count({ where: { status: "suspended", agentId: { not: null } } })).toBe(12);
  });

  it.each([
    [{ perPage: 0, page: 0 }, /perPage must be a positive integer/],
    [{ perPage: -1, page: 0 }, /perPage must be a positive integer/],
    [{ perPage: 1.5, page: 0 }, /perPage must be a positive integer/],
    [{ perPage: 10, page: -1 }, /page must be a non-negative integer/],
    [{ perPage: 10, page: 1.5 }, /page must be a non-negative integer/],
    [{ fromDate: "not a date" }, /fromDate is not a valid date/],
    [{ toDate: "2026-13-45" }, /toDate is not a valid date/],
    [{ fromDate: new Date("2026-02-01"), toDate: new Date("2026-01-01") }, /fromDate must not be after toDate/],
    [{ agentId: "" }, /agentId must not be empty/],
    [{ resourceId: "x".repeat(300) }, /resourceId is longer than 256/],
    [{ status: "running" }, /Unrecognized key/],
  ])("rejects %j with a clear error", async (options, message) => {
    const attempt = listSuspendedRuns(options as never, database.url);
    await expect(attempt).rejects.toBeInstanceOf(InvalidListOptionsError);
    await expect(attempt).rejects.toThrow(message);
  });
});
