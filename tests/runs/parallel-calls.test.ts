/**
 * A run that waits on several calls of one step (the model called two tools at once), and runs
 * without a thread, against Mastra 1.71's own behaviour: real demo agents on the scripted model,
 * real store, on SQLite and PostgreSQL. Mastra carries out a step's calls one at a time, in the
 * model's order: the run waits on the first, lists only it, and reaches the next once it is decided.
 */
import { describe, expect, it } from "vitest";
import { decide } from "../../lib/decisions/decide.ts";
import { getDb } from "../../lib/db/client.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { getRunDetail } from "../../lib/queue/views.ts";
import { asContractRuns } from "../helpers/contract.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { listThreads } from "../../lib/runs/list-threads.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { suspendDemoRun, type DemoMemory, type DemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("parallel calls and runs without a thread on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  /** Our listing and Mastra's own agent.listSuspendedRuns() for the same filter: same runs, calls, totals. */
  async function expectSameListing(filter: { resourceId?: string; threadId?: string }) {
    const mastra = await createConsoleMastra(database.url);
    const theirs = await mastra.getAgent("refunds").listSuspendedRuns(filter);
    const ours = await listSuspendedRuns({ ...filter, agentId: "refunds" }, database.url);
    expect(asContractRuns(ours, "agent")).toEqual({ total: theirs.total, runs: theirs.runs });
    return ours;
  }

  async function effectsOf(runId: string) {
    const db = await getDb(database.url);
    const decisions = await db.toolCallDecision.findMany({ where: { runId } });
    const effects = await db.toolEffect.findMany({ where: { toolCallId: { in: decisions.map((d) => d.toolCallId) } } });
    return { effects: effects.map((e) => e.toolCallId).sort(), snapshots: await db.workflowSnapshot.count({ where: { runId } }) };
  }

  const several = (memory: DemoMemory = "thread", partial = false) =>
    suspendDemoRun(
      database.url,
      "refunds",
      requests.severalRefunds({
        orders: [
          { order: "ORD-8101", amount: "12.00", currency: "EUR" },
          { order: "ORD-8102", amount: "30.00", currency: "EUR" },
        ],
        partial: partial ? { order: "ORD-8103", total: "80.00", currency: "EUR" } : undefined,
      }).text,
      memory,
    );

  /** The run's pending call (as listed) and the calls queued behind it (as the run page shows them). */
  async function callsOf(run: DemoRun) {
    const detail = await getRunDetail(run.runId);
    return {
      pending: detail?.toolCalls.map((call) => `${call.toolName}:${call.requiresApproval ? "approval" : "data"}`),
      queued: detail?.queuedCalls.map((call) => ({ toolName: call.toolName, behind: call.behind })),
      detail,
    };
  }

  it("two approvals in one step: listed one at a time like Mastra lists them, the second refused until the first is decided", async () => {
    const run = await several();
    const first = run.ref.toolCallId;
    const listed = await expectSameListing({ resourceId: run.resource });
    expect(listed.runs).toHaveLength(1);
    expect(listed.runs[0]!.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: first, args: expect.objectContaining({ orderId: "ORD-8101" }) }),
    ]);
    const before = await callsOf(run);
    expect(before.pending).toEqual(["issueRefund:approval"]);
    expect(before.queued).toEqual([{ toolName: "issueRefund", behind: first }]);
    const second = before.detail!.queuedCalls[0]!.toolCallId;
    expect(before.detail!.queuedCalls[0]!.args).toMatchObject({ orderId: "ORD-8102", amount: 30 });

    // Out of order: refused before anything is recorded or sent, naming the call to decide first.
    await expect(
      decide({ action: "approve", runId: run.runId, toolCallId: second }, { reviewer: "bob@test.example" }),
    ).rejects.toMatchObject({
      code: "call_not_reached",
      message: expect.stringContaining(`waits on "${first}" (issueRefund) first`),
    });
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.count({ where: { runId: run.runId } })).toBe(0);
    expect(await db.auditEvent.findFirst({ where: { runId: run.runId }, select: { outcome: true, code: true, toolName: true } })).toEqual({
      outcome: "refused",
      code: "call_not_reached",
      toolName: "issueRefund",
    });

    // The first call, by one reviewer: the run stays listed, now waiting on the second call only.
    expect(await decide({ action: "approve", runId: run.runId, toolCallId: first }, { reviewer: "rita@test.example" })).toMatchObject({
      runState: "waiting-again",
    });
    const between = await expectSameListing({ resourceId: run.resource });
    expect(between.runs.map((r) => r.toolCalls.map((c) => c.toolCallId))).toEqual([[second]]);
    expect((await callsOf(run)).queued).toEqual([]);
    expect(await effectsOf(run.runId)).toEqual({ effects: [first], snapshots: 2 });

    // The second call, by another reviewer: the run completes; each tool ran once.
    const outcome = await decide({ action: "approve", runId: run.runId, toolCallId: second }, { reviewer: "bob@test.example" });
    expect(outcome).toMatchObject({ runState: "completed" });
    expect(outcome.answer).toContain("for order ORD-8101.");
    expect(outcome.answer).toContain("for order ORD-8102.");
    expect((await expectSameListing({ resourceId: run.resource })).total).toBe(0);
    expect(await effectsOf(run.runId)).toEqual({ effects: [first, second].sort(), snapshots: 0 });
    // Exactly once per call: deciding either again is already decided, and nothing runs.
    for (const toolCallId of [first, second]) {
      await expect(decide({ action: "approve", runId: run.runId, toolCallId }, { reviewer: "carl@test.example" })).rejects.toMatchObject({
        code: "already_decided",
      });
    }
    expect((await effectsOf(run.runId)).effects).toHaveLength(2);
  });

  it("declining the first call still reaches the second; approving it runs only its tool", async () => {
    const run = await several();
    const second = (await callsOf(run)).detail!.queuedCalls[0]!.toolCallId;
    expect(
      await decide(
        { action: "decline", runId: run.runId, toolCallId: run.ref.toolCallId, reason: "Duplicate" },
        { reviewer: "rita@test.example" },
      ),
    ).toMatchObject({ runState: "waiting-again" });
    expect((await expectSameListing({ resourceId: run.resource })).runs[0]!.toolCalls[0]!.toolCallId).toBe(second);
    const outcome = await decide({ action: "approve", runId: run.runId, toolCallId: second }, { reviewer: "bob@test.example" });
    expect(outcome.answer).toContain("I did not go ahead with issueRefund: Duplicate");
    expect(await effectsOf(run.runId)).toEqual({ effects: [second], snapshots: 0 });
  });

  it("an approval and a suspend() in one step: approve, then the same run waits for data, resumed with it", async () => {
    const run = await several("thread", true);
    const { detail } = await callsOf(run);
    expect(detail!.queuedCalls.map((call) => call.toolName)).toEqual(["issueRefund", "settlePartialRefund"]);
    const [second, third] = detail!.queuedCalls.map((call) => call.toolCallId);
    await decide({ action: "approve", runId: run.runId, toolCallId: run.ref.toolCallId }, { reviewer: "rita@test.example" });
    await decide(
      { action: "decline", runId: run.runId, toolCallId: second!, reason: "Already refunded" },
      { reviewer: "bob@test.example" },
    );
    const waiting = await expectSameListing({ resourceId: run.resource });
    expect(waiting.runs[0]!.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: third, toolName: "settlePartialRefund", requiresApproval: false }),
    ]);
    // An approval is the wrong kind for it; resume data is checked against its schema.
    await expect(
      decide({ action: "approve", runId: run.runId, toolCallId: third! }, { reviewer: "bob@test.example" }),
    ).rejects.toMatchObject({
      code: "wrong_kind",
    });
    const outcome = await decide(
      { action: "resume", runId: run.runId, toolCallId: third!, resumeData: { amount: 20 } },
      { reviewer: "bob@test.example" },
    );
    expect(outcome).toMatchObject({ runState: "completed" });
    expect(await effectsOf(run.runId)).toEqual({ effects: [run.ref.toolCallId, third!].sort(), snapshots: 0 });
  });

  it("a run without memory has no thread and no resource: listed like Mastra lists it, grouped as no thread, decided", async () => {
    const run = await suspendDemoRun(database.url, "refunds", requests.refund({ order: "ORD-8201" }).text, "none");
    const all = await expectSameListing({});
    const listed = all.runs.find((r) => r.runId === run.runId)!;
    expect(listed).toMatchObject({ runId: run.runId });
    expect([listed.threadId, listed.resourceId]).toEqual([undefined, undefined]);
    const { threads } = await listThreads({ agentId: "refunds", overdueBefore: new Date(0), perPage: 100 }, database.url);
    expect(threads.find((thread) => thread.threadKey === "")?.shownRuns.map((r) => r.runId)).toContain(run.runId);
    await decide({ action: "approve", runId: run.runId, toolCallId: run.ref.toolCallId }, { reviewer: "rita@test.example" });
    expect(await effectsOf(run.runId)).toEqual({ effects: [run.ref.toolCallId], snapshots: 0 });
  });

  it("a run with a resource but no thread is filterable by its resource, and decidable", async () => {
    const run = await several("resource-only");
    const listed = await expectSameListing({ resourceId: run.resource });
    expect(listed.runs).toEqual([expect.objectContaining({ runId: run.runId, resourceId: run.resource })]);
    expect(listed.runs[0]!.threadId).toBeUndefined();
    const { threads } = await listThreads({ resourceId: run.resource, overdueBefore: new Date(0), perPage: 100 }, database.url);
    expect(threads.map((thread) => [thread.threadKey, thread.calls])).toEqual([["", 1]]);
    const second = (await callsOf(run)).detail!.queuedCalls[0]!.toolCallId;
    await decide({ action: "approve", runId: run.runId, toolCallId: run.ref.toolCallId }, { reviewer: "rita@test.example" });
    await decide({ action: "approve", runId: run.runId, toolCallId: second }, { reviewer: "bob@test.example" });
    expect(await effectsOf(run.runId)).toEqual({ effects: [run.ref.toolCallId, second].sort(), snapshots: 0 });
    expect((await expectSameListing({ resourceId: run.resource })).total).toBe(0);
  });
});
