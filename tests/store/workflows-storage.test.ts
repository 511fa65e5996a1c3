/**
 * The Prisma workflows domain on its own: every WorkflowsStorage method with the semantics Mastra's
 * own stores have, concurrent read-modify-writes from separate connections, on SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { createEmptyWorkflowSnapshot } from "@mastra/core/storage";
import type { WorkflowRunState } from "@mastra/core/workflows";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, disconnectDb, getDb, type Db } from "../../lib/db/client.ts";
import { PrismaWorkflowsStorage } from "@agent-approvals/mastra-store";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

function snapshot(runId: string, status: WorkflowRunState["status"] = "running"): WorkflowRunState {
  return { ...createEmptyWorkflowSnapshot(runId), status };
}

describe.each(["sqlite", "postgres"] as const)("PrismaWorkflowsStorage on %s", (kind) => {
  let database: TestDatabase;
  let storage: PrismaWorkflowsStorage;
  const extraClients: Db[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    storage = new PrismaWorkflowsStorage({ db: await getDb(database.url) });
    await storage.init();
  });

  afterAll(async () => {
    await Promise.all(extraClients.map((db) => db.$disconnect()));
    await disconnectDb(database.url);
    await database.drop();
  });

  it("round-trips a snapshot and keeps creation time and resource across updates", async () => {
    const runId = randomUUID();
    const createdAt = new Date("2026-01-02T03:04:05.678Z");
    await storage.persistWorkflowSnapshot({ workflowName: "wf", runId, resourceId: "res-1", snapshot: snapshot(runId), createdAt });
    const firstWrite = await storage.getWorkflowRunById({ runId, workflowName: "wf" });

    await storage.persistWorkflowSnapshot({ workflowName: "wf", runId, snapshot: snapshot(runId, "suspended") });

    expect(await storage.loadWorkflowSnapshot({ workflowName: "wf", runId })).toMatchObject({ runId, status: "suspended" });
    const run = await storage.getWorkflowRunById({ runId });
    expect(run).toMatchObject({ workflowName: "wf", runId, resourceId: "res-1", createdAt });
    expect(run!.updatedAt.getTime()).toBeGreaterThanOrEqual(firstWrite!.updatedAt.getTime());
    expect(await storage.loadWorkflowSnapshot({ workflowName: "other", runId })).toBeNull();
  });

  it("stores what JSON cannot hold the way Mastra's stores do", async () => {
    const runId = randomUUID();
    const state = snapshot(runId);
    const circular: Record<string, unknown> = { name: "loop" };
    circular.self = circular;
    (state as { value: unknown }).value = {
      big: 10n ** 20n,
      circular,
      when: new Date("2026-05-06T07:08:09.000Z"),
      html: "<script>alert(1)</script>\u0000",
    };

    await storage.persistWorkflowSnapshot({ workflowName: "wf", runId, snapshot: state });

    expect((await storage.loadWorkflowSnapshot({ workflowName: "wf", runId }))!.value).toEqual({
      big: "100000000000000000000",
      circular: { name: "loop" },
      when: "2026-05-06T07:08:09.000Z",
      html: "<script>alert(1)</script>\u0000",
    });
  });

  it("lists with Mastra's filters, newest first, paging only when perPage and page are both given", async () => {
    const resourceId = `res-${randomUUID()}`;
    const runIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const runId = randomUUID();
      runIds.push(runId);
      await storage.persistWorkflowSnapshot({
        workflowName: "list-wf",
        runId,
        resourceId,
        snapshot: snapshot(runId, i % 2 === 0 ? "suspended" : "success"),
        createdAt: new Date(Date.UTC(2026, 0, 10 + i)),
      });
    }
    const list = (options: object) => storage.listWorkflowRuns({ workflowName: "list-wf", resourceId, ...options });

    const all = await list({});
    expect(all.total).toBe(5);
    expect(all.runs.map((r) => r.runId)).toEqual([...runIds].reverse());
    expect((await list({ status: "suspended" })).runs.map((r) => r.runId)).toEqual([runIds[4], runIds[2], runIds[0]]);
    const page = await list({ perPage: 2, page: 1 });
    expect(page).toMatchObject({ total: 5 });
    expect(page.runs.map((r) => r.runId)).toEqual([runIds[2], runIds[1]]);
    expect((await list({ perPage: 2 })).runs).toHaveLength(5);
    expect((await list({ perPage: false, page: 0 })).runs).toHaveLength(5);
    const window = await list({ fromDate: new Date(Date.UTC(2026, 0, 11)), toDate: new Date(Date.UTC(2026, 0, 13)) });
    expect(window.runs.map((r) => r.runId)).toEqual([runIds[3], runIds[2], runIds[1]]);
    expect((await storage.listWorkflowRuns({ resourceId: "nobody" })).total).toBe(0);
    await expect(list({ perPage: 2, page: -1 })).rejects.toThrow(/page/);
  });

  it("deletes one workflow's row of a run and leaves the other", async () => {
    const runId = randomUUID();
    await storage.persistWorkflowSnapshot({ workflowName: "outer", runId, snapshot: snapshot(runId) });
    await storage.persistWorkflowSnapshot({ workflowName: "inner", runId, snapshot: snapshot(runId) });

    await storage.deleteWorkflowRunById({ runId, workflowName: "inner" });

    expect(await storage.loadWorkflowSnapshot({ workflowName: "inner", runId })).toBeNull();
    expect(await storage.getWorkflowRunById({ runId })).toMatchObject({ workflowName: "outer" });
  });

  it("updateWorkflowState honours expectedStatus and changes nothing when it does not match", async () => {
    const runId = randomUUID();
    await storage.persistWorkflowSnapshot({ workflowName: "wf", runId, snapshot: snapshot(runId, "suspended") });

    expect(
      await storage.updateWorkflowState({ workflowName: "wf", runId, opts: { status: "success", expectedStatus: "running" } }),
    ).toBeUndefined();
    expect((await storage.loadWorkflowSnapshot({ workflowName: "wf", runId }))!.status).toBe("suspended");

    const updated = await storage.updateWorkflowState({
      workflowName: "wf",
      runId,
      opts: { status: "running", expectedStatus: ["suspended", "paused"] },
    });
    expect(updated).toMatchObject({ status: "running" });
    expect((await storage.loadWorkflowSnapshot({ workflowName: "wf", runId }))!.status).toBe("running");
    const row = await (await getDb(database.url)).workflowSnapshot.findFirstOrThrow({ where: { runId } });
    expect(row.status).toBe("running");
    expect(await storage.updateWorkflowState({ workflowName: "wf", runId: randomUUID(), opts: { status: "running" } })).toBeUndefined();
  });

  it("keeps every step result when many writers update one run at once, over separate connections", async () => {
    const runId = randomUUID();
    await storage.persistWorkflowSnapshot({ workflowName: "wf", runId, snapshot: snapshot(runId) });
    const writers = await Promise.all(
      [0, 1, 2].map(async () => {
        const db = await createDb(database.url);
        extraClients.push(db);
        return new PrismaWorkflowsStorage({ db });
      }),
    );

    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        writers[i % writers.length]!.updateWorkflowResults({
          workflowName: "wf",
          runId,
          stepId: `step-${i}`,
          result: { status: "success", output: { i }, payload: {}, startedAt: i, endedAt: i + 1 } as never,
          requestContext: {},
        }),
      ),
    );

    const context = (await storage.loadWorkflowSnapshot({ workflowName: "wf", runId }))!.context;
    expect(
      Object.keys(context)
        .filter((key) => key.startsWith("step-"))
        .sort(),
    ).toEqual(Array.from({ length: 24 }, (_, i) => `step-${i}`).sort());
  });

  it("creates the run on a first updateWorkflowResults, as Mastra's stores do", async () => {
    const runId = randomUUID();
    const context = await storage.updateWorkflowResults({
      workflowName: "wf",
      runId,
      stepId: "first",
      result: { status: "success", output: 1, payload: {}, startedAt: 1, endedAt: 2 } as never,
      requestContext: {},
    });
    expect(context).toHaveProperty("first");
    expect(await storage.loadWorkflowSnapshot({ workflowName: "wf", runId })).toMatchObject({ runId, status: "pending" });
  });
});
