/**
 * The review queue's pages of threads against a brute-force reference: the contract's runs
 * (listSuspendedRuns with the same filters) grouped by thread in memory, for every combination of
 * filters, both sorts and every page, on SQLite and PostgreSQL; before and after runs leave the
 * queue, so the trigger-kept thread summaries are checked as they change. Some runs are moved to the
 * day before (their creation date rewritten, as a store write would), so that windows of whole UTC
 * days, which read the per-day summaries, span threads with runs on two days.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { listSuspendedRuns, type ConsoleRun } from "../../lib/runs/list-suspended-runs.ts";
import { listThreads, NO_THREAD_KEY, type ThreadListing } from "../../lib/runs/list-threads.ts";
import { summariesCover } from "../../lib/runs/thread-summaries.ts";
import { listThreadsOptions } from "../../lib/runs/validations.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { createTestMastra, readAnswer, suspendRun, type TestAgentKey, type TestMastra } from "../helpers/agents.ts";

const DAY_MS = 86_400_000;

interface Filters {
  agentId?: string;
  resourceId?: string;
  threadId?: string;
  noThread?: boolean;
  fromDate?: Date;
  toDate?: Date;
  onlyOverdue: boolean;
  sort: "oldest" | "newest";
  assignedTo?: string;
}

/** Runs with a call assigned to `userId`: their own assignment, or their thread's unless the call is someone else's. */
async function assignedRuns(url: string, userId: string): Promise<Set<string>> {
  const db = await getDb(url);
  const [calls, threadsHeld] = await Promise.all([db.callAssignment.findMany(), db.threadAssignment.findMany()]);
  const { runs } = await listSuspendedRuns({}, url);
  const mine = new Set(threadsHeld.filter((t) => t.assigneeId === userId).map((t) => t.threadId));
  return new Set(
    runs
      .filter((run) => {
        const ofRun = calls.filter((call) => call.runId === run.runId);
        if (ofRun.some((call) => call.assigneeId === userId)) return true;
        return run.threadId !== undefined && mine.has(run.threadId) && ofRun.length === 0;
      })
      .map((run) => run.runId),
  );
}

/** The contract's runs, grouped by thread in memory: what listThreads must return. */
async function reference(url: string, filters: Filters, overdueBefore: Date, perPage: number, callsPerThread: number) {
  const { runs } = await listSuspendedRuns(
    {
      agentId: filters.agentId,
      resourceId: filters.resourceId,
      threadId: filters.threadId,
      fromDate: filters.fromDate,
      toDate: filters.toDate,
    },
    url,
  );
  const assigned = filters.assignedTo ? await assignedRuns(url, filters.assignedTo) : null;
  const matching = runs.filter(
    (run) =>
      (!filters.onlyOverdue || run.suspendedAt < overdueBefore) &&
      (!filters.noThread || run.threadId === undefined) &&
      (!assigned || assigned.has(run.runId)),
  );
  const groups = new Map<string, ConsoleRun[]>();
  for (const run of matching) groups.set(run.threadId ?? NO_THREAD_KEY, [...(groups.get(run.threadId ?? NO_THREAD_KEY) ?? []), run]);
  const calls = (list: ConsoleRun[]) => list.reduce((sum, run) => sum + run.toolCalls.length, 0);
  const threads = [...groups].map(([threadKey, list]) => {
    const ordered = list.sort((a, b) => a.suspendedAt.getTime() - b.suspendedAt.getTime() || (a.runId < b.runId ? -1 : 1));
    return {
      threadKey,
      calls: calls(ordered),
      overdueCalls: calls(ordered.filter((run) => run.suspendedAt < overdueBefore)),
      oldestAt: ordered[0]!.suspendedAt.toISOString(),
      shownRunIds: ordered.slice(0, callsPerThread).map((run) => run.runId),
    };
  });
  const sign = filters.sort === "newest" ? -1 : 1;
  threads.sort((a, b) => sign * (a.oldestAt.localeCompare(b.oldestAt) || (a.threadKey < b.threadKey ? -1 : 1)));
  const pages = [];
  for (let start = 0; start < threads.length; start += perPage) pages.push(threads.slice(start, start + perPage));
  return { pages, threadTotal: threads.length, callTotal: calls(matching) };
}

function comparable(listing: ThreadListing) {
  return listing.threads.map((thread) => ({
    threadKey: thread.threadKey,
    calls: thread.calls,
    overdueCalls: thread.overdueCalls,
    oldestAt: thread.oldestAt.toISOString(),
    shownRunIds: thread.shownRuns.map((run) => run.runId),
  }));
}

describe.each(["sqlite", "postgres"] as const)("pages of threads on %s", (kind) => {
  let database: TestDatabase;
  let mastra: TestMastra;
  const resources = [`acme-${randomUUID()}`, `globex-${randomUUID()}`];
  const threads = [0, 1, 2, 3, 4].map((t) => ({ thread: `thread-${t}-${randomUUID()}`, resource: resources[t % 2]! }));
  let midpoint: Date;
  /** UTC midnight of the day the runs were created, and of the day before, where some were moved. */
  let today: Date;
  let yesterday: Date;
  let waiting: Array<{ agent: TestAgentKey; threadIndex: number | null; runId: string; toolCallId: string }> = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastra = await createTestMastra(database.url);
    // Threads of one and of several runs, two agents (thread 2 has both), and runs without a thread.
    const plan: Array<[TestAgentKey, string, number | null]> = [
      ["teller", "transfer 10 from a to b", 0],
      ["auditor", "ask the audit scope", 1],
      ["teller", "ask the account owner", 2],
      ["auditor", "transfer 20 from c to d", 2],
      ["teller", "transfer 30 from e to f", 3],
      ["auditor", "ask nothing in particular", null],
      ["teller", "transfer 40 from g to h", 4],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [agent, text, threadIndex] of plan.slice(round, plan.length - round)) {
        // Mastra holds a second stream on a thread with a suspended run in one instance: one each.
        const instance = await createTestMastra(database.url);
        const call = await suspendRun(instance, agent, text, threadIndex === null ? undefined : threads[threadIndex]);
        waiting.push({ agent, threadIndex, ...call });
      }
      if (round === 0) midpoint = new Date();
    }
    today = new Date(Math.floor(midpoint.getTime() / DAY_MS) * DAY_MS);
    yesterday = new Date(today.getTime() - DAY_MS);
    // The first round's runs of threads 2 and 4 and the one without a thread start a day earlier.
    const db = await getDb(database.url);
    const moved = await db.workflowSnapshot.findMany({
      where: {
        runId: { in: waiting.slice(0, 7).map((w) => w.runId) },
        OR: [{ threadId: { in: [threads[2]!.thread, threads[4]!.thread] } }, { threadId: null }],
      },
    });
    expect(moved.length).toBeGreaterThanOrEqual(3);
    for (const row of moved) {
      await db.workflowSnapshot.update({
        where: { workflowName_runId: { workflowName: row.workflowName, runId: row.runId } },
        data: { createdAt: new Date(row.createdAt.getTime() - DAY_MS) },
      });
    }
    // Rita holds thread 2 but one of its calls is Sam's; she also holds a call without a thread and one of thread 3.
    const held = { assignedBy: "lead@example.com", assignedAt: new Date() };
    const byThread = (t: number | null) => waiting.filter((w) => w.threadIndex === t);
    await db.threadAssignment.create({ data: { threadId: threads[2]!.thread, assigneeId: "rita", ...held } });
    await db.threadAssignment.create({ data: { threadId: threads[0]!.thread, assigneeId: "sam", ...held } });
    for (const [call, assigneeId] of [
      [byThread(2)[0]!, "sam"],
      [byThread(null)[0]!, "rita"],
      [byThread(3)[1]!, "rita"],
    ] as const) {
      await db.callAssignment.create({ data: { runId: call.runId, toolCallId: call.toolCallId, assigneeId, ...held } });
    }
  }, 120_000);

  afterAll(async () => {
    await disconnectDb(database.url);
    await database.drop();
  });

  const combinations = (): Filters[] => {
    const all: Filters[] = [];
    for (const agentId of [undefined, "teller", "auditor"])
      for (const resourceId of [undefined, resources[0]])
        for (const thread of [{}, { threadId: threads[2]!.thread }, { noThread: true }])
          for (const dates of [
            {},
            { fromDate: midpoint },
            { toDate: midpoint },
            ...(resourceId || "threadId" in thread ? [] : wholeDays()),
          ])
            for (const onlyOverdue of [false, true])
              for (const sort of ["oldest", "newest"] as const) all.push({ agentId, resourceId, ...thread, ...dates, onlyOverdue, sort });
    // "Assigned to me": a held thread, a call of it held by someone else, calls held on their own.
    for (const agentId of [undefined, "teller"])
      for (const thread of [{}, { threadId: threads[2]!.thread }, { noThread: true }])
        for (const dates of [{}, wholeDays()[2]!])
          for (const onlyOverdue of [false, true])
            all.push({ agentId, ...thread, ...dates, onlyOverdue, sort: "oldest", assignedTo: "rita" });
    return all;
  };

  /** Windows of whole UTC days: one day, two, open at either end, and an empty day. */
  const wholeDays = () => [
    { fromDate: today, toDate: new Date(today.getTime() + DAY_MS - 1) },
    { fromDate: yesterday, toDate: new Date(yesterday.getTime() + DAY_MS - 1) },
    { fromDate: yesterday, toDate: new Date(today.getTime() + DAY_MS - 1) },
    { fromDate: today },
    { toDate: new Date(today.getTime() - 1) },
    { fromDate: new Date(today.getTime() + DAY_MS), toDate: new Date(today.getTime() + 2 * DAY_MS - 1) },
  ];

  async function expectAllCombinationsMatch(perPage: number, callsPerThread: number) {
    let compared = 0;
    for (const filters of combinations()) {
      const overdueBefore = midpoint;
      const expected = await reference(database.url, filters, overdueBefore, perPage, callsPerThread);
      for (let page = 0; page <= expected.pages.length; page++) {
        const listing = await listThreads({ ...filters, overdueBefore, perPage, page, callsPerThread }, database.url);
        const label = JSON.stringify({ ...filters, page });
        expect({ threadTotal: listing.threadTotal, callTotal: listing.callTotal }, label).toEqual({
          threadTotal: expected.threadTotal,
          callTotal: expected.callTotal,
        });
        expect(comparable(listing), label).toEqual(expected.pages[page] ?? []);
        compared++;
      }
    }
    return compared;
  }

  it("equals the contract's runs grouped by thread, for every filter, sort and page", async () => {
    expect(await expectAllCombinationsMatch(2, 50)).toBeGreaterThan(216 + 72);
    // The whole-day windows were read from the per-day summaries, the others from the runs.
    const covered = (dates: object) => summariesCover(listThreadsOptions.parse({ ...dates, overdueBefore: midpoint }));
    expect(wholeDays().map(covered)).toEqual(wholeDays().map(() => true));
    expect([{ fromDate: midpoint }, { toDate: midpoint }].map(covered)).toEqual([false, false]);
    const db = await getDb(database.url);
    const days = await db.suspendedThreadDay.findMany({ where: { agentId: "" }, select: { day: true }, distinct: ["day"] });
    expect(days.map((row) => row.day.toISOString()).sort()).toEqual([yesterday.toISOString(), today.toISOString()]);
    // The fixture has what the comparisons need to mean something.
    const all = await listThreads({ overdueBefore: midpoint, perPage: 100 }, database.url);
    expect(all.threads.map((thread) => thread.threadKey)).toContain(NO_THREAD_KEY);
    expect(all.threads.some((thread) => thread.overdueCalls > 0 && thread.overdueCalls < thread.calls)).toBe(true);
    expect(all.threads.find((thread) => thread.threadKey === threads[2]!.thread)?.shownRuns.map((run) => run.agentId)).toEqual(
      expect.arrayContaining(["teller", "auditor"]),
    );
    const rita = await listThreads({ overdueBefore: midpoint, perPage: 100, assignedTo: "rita" }, database.url);
    expect(rita.threads.map((thread) => thread.threadKey).sort()).toEqual([NO_THREAD_KEY, threads[2]!.thread, threads[3]!.thread].sort());
    expect(rita.threads.find((thread) => thread.threadKey === threads[2]!.thread)!.calls).toBeLessThan(
      all.threads.find((thread) => thread.threadKey === threads[2]!.thread)!.calls,
    );
  }, 120_000);

  it("caps the calls shown per thread, never the counts", async () => {
    await expectAllCombinationsMatch(3, 1);
  }, 120_000);

  it("stays exact as runs leave the queue and the summaries change under it", async () => {
    // Decide the oldest run of a few threads (the summary must find each thread's next oldest),
    // and the whole of one thread (its summary rows must go).
    const db = await getDb(database.url);
    const byAge = await listSuspendedRuns({}, database.url);
    const oldestFirst = [...byAge.runs].sort((a, b) => a.suspendedAt.getTime() - b.suspendedAt.getTime());
    const leaving = [oldestFirst[0]!, oldestFirst[1]!, ...byAge.runs.filter((run) => run.threadId === threads[3]!.thread)];
    for (const run of new Map(leaving.map((r) => [r.runId, r])).values()) {
      const entry = waiting.find((w) => w.runId === run.runId)!;
      const instance = await createTestMastra(database.url);
      await readAnswer(await instance.getAgent(entry.agent).approveToolCall({ runId: run.runId, toolCallId: entry.toolCallId }));
    }
    waiting = waiting.filter((w) => !leaving.some((run) => run.runId === w.runId));
    expect(await db.suspendedThread.findMany({ where: { threadKey: threads[3]!.thread } })).toEqual([]);
    expect(await db.suspendedThreadDay.findMany({ where: { threadKey: threads[3]!.thread } })).toEqual([]);
    await expectAllCombinationsMatch(2, 50);
  }, 180_000);

  it("stays exact as waiting runs are written again with a new waiting time", async () => {
    // A rewrite changes only updatedAt: the thread's oldest moves later when its oldest run is
    // rewritten, earlier when another run is, and the runs without a thread likewise.
    const db = await getDb(database.url);
    const rewrite = async (threadId: string | null, pick: "oldest" | "newest", shiftMs: number) => {
      const rows = await db.workflowSnapshot.findMany({
        where: { status: "suspended", agentId: { not: null }, threadId },
        orderBy: { updatedAt: pick === "oldest" ? "asc" : "desc" },
        take: 1,
      });
      expect(rows.length, `a waiting run of ${threadId}`).toBe(1);
      const [row] = rows;
      await db.workflowSnapshot.update({
        where: { workflowName_runId: { workflowName: row!.workflowName, runId: row!.runId } },
        data: { updatedAt: new Date(row!.updatedAt.getTime() + shiftMs) },
      });
    };
    await rewrite(threads[2]!.thread, "oldest", 3_600_000);
    await rewrite(threads[1]!.thread, "newest", -3_600_000);
    await rewrite(null, "oldest", 60_000);
    await expectAllCombinationsMatch(2, 50);
  }, 180_000);

  it("refuses invalid options with a clear message", async () => {
    await expect(listThreads({ overdueBefore: midpoint, perPage: 101 }, database.url)).rejects.toThrow(/perPage must be at most 100/);
    await expect(listThreads({ overdueBefore: midpoint, sort: "sideways" as never }, database.url)).rejects.toThrow(
      /sort must be one of oldest, newest/,
    );
  });
});
