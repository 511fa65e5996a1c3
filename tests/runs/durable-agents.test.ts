/**
 * A durable agent (Mastra's `createDurableAgent`, here through `durable: true`) against Mastra
 * 1.71's own behaviour: the demo's `billing` agent on the scripted model, real store, SQLite and
 * PostgreSQL. Mastra stores its run as a `durable-agentic-loop` row beside an internal
 * `durable-agentic-execution` row; the console lists the first (the one to continue), never the
 * second, and decides it through the same code paths as any agent run.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { carryOut } from "../../lib/decisions/carry-out.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordDecision } from "../../lib/decisions/ledger.ts";
import { resolveOwner } from "../../lib/decisions/owners.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { durable, requests } from "../../lib/mastra/demo/requests.ts";
import { getRunDetail } from "../../lib/queue/views.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { listThreads } from "../../lib/runs/list-threads.ts";
import { asContractRuns } from "../helpers/contract.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

type ContractListing = ReturnType<typeof asContractRuns>;

/**
 * What Mastra 1.71's own `listSuspendedRuns()` makes of a durable run: it reads approvals only in
 * the plain agent's layout (`requireToolApproval`), so a durable approval comes back as a
 * suspend() without payload or arguments. The console lists it as the approval it is.
 */
function asMastra171ReadsIt(listing: ContractListing): ContractListing {
  return {
    ...listing,
    runs: listing.runs.map((run) => ({
      ...run,
      toolCalls: run.toolCalls.map((call) =>
        call.requiresApproval ? { toolCallId: call.toolCallId, toolName: call.toolName, requiresApproval: false } : call,
      ),
    })),
  };
}

describe.each(["sqlite", "postgres"] as const)("a durable agent's runs on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const reviewer = (name: string) => ({ reviewer: `${name}@test.example`, databaseUrl: database.url });

  /** Our listing and Mastra's own billing.listSuspendedRuns() for the same filter: same runs, calls, totals. */
  async function expectSameListing(filter: { resourceId?: string; threadId?: string; perPage?: number; page?: number }) {
    const mastra = await createConsoleMastra(database.url);
    const theirs = await mastra.getAgent("billing").listSuspendedRuns(filter);
    const ours = await listSuspendedRuns({ ...filter, agentId: "billing" }, database.url);
    expect(asMastra171ReadsIt(asContractRuns(ours, "durable-agent"))).toEqual(theirs);
    return ours;
  }

  const refund = (order: string) => durable(requests.refund({ order })).text;
  const partial = (order: string) => durable(requests.partialRefund({ order })).text;

  async function effectsOf(run: DemoRun) {
    const db = await getDb(database.url);
    const effects = await db.toolEffect.findMany({ where: { resourceId: run.resource }, orderBy: { at: "asc" } });
    return {
      effects: effects.map((effect) => `${effect.agentId}:${effect.toolName}:${effect.toolCallId}`),
      rows: (await db.workflowSnapshot.findMany({ where: { runId: run.runId }, select: { workflowName: true } }))
        .map((row) => row.workflowName)
        .sort(),
    };
  }

  it("lists what Mastra stores under durable-agentic-loop, filtered like Mastra filters it; approvals listed as approvals", async () => {
    const resource = `cust_${randomUUID()}`;
    const approval = await suspendDemoRun(database.url, "billing", refund("ORD-9501"));
    const input = await suspendDemoRun(database.url, "billing", partial("ORD-9502"));
    const plain = await suspendDemoRun(database.url, "refunds", requests.refund({ order: "ORD-9503" }).text);

    // Two rows per run: the outer one (listed, owned) and Mastra's internal execution row (never listed).
    const db = await getDb(database.url);
    const rows = await db.workflowSnapshot.findMany({
      where: { runId: approval.runId },
      select: { workflowName: true, status: true, agentId: true, toolCallCount: true },
      orderBy: { workflowName: "asc" },
    });
    expect(rows).toEqual([
      { workflowName: "durable-agentic-execution", status: "suspended", agentId: null, toolCallCount: 0 },
      { workflowName: "durable-agentic-loop", status: "suspended", agentId: "billing", toolCallCount: 1 },
    ]);

    for (const filter of [
      {},
      { resourceId: approval.resource },
      { threadId: input.thread },
      { resourceId: input.resource, threadId: input.thread },
      { resourceId: resource },
      { perPage: 1, page: 1 },
    ]) {
      await expectSameListing(filter);
    }
    const all = await expectSameListing({});
    expect(all.runs.map((run) => run.runId).sort()).toEqual([approval.runId, input.runId].sort());
    const callOf = (runId: string) => all.runs.find((run) => run.runId === runId)!.toolCalls;
    expect(callOf(approval.runId)).toEqual([
      {
        toolCallId: approval.ref.toolCallId,
        toolName: "issueRefund",
        requiresApproval: true,
        args: expect.objectContaining({ orderId: "ORD-9501", amount: 42.5 }),
      },
    ]);
    expect(callOf(input.runId)).toEqual([
      expect.objectContaining({
        toolName: "settlePartialRefund",
        requiresApproval: false,
        suspendPayload: expect.objectContaining({ orderId: "ORD-9502" }),
      }),
    ]);

    // Every agent together: each run once, with its shape; the totals agree.
    const everyone = await listSuspendedRuns({}, database.url);
    expect(everyone.runs.map((run) => [run.runId, run.shape]).sort()).toEqual(
      [
        [approval.runId, "durable-agent"],
        [input.runId, "durable-agent"],
        [plain.runId, "agent"],
      ].sort(),
    );
    const threads = await listThreads({ overdueBefore: new Date(0), perPage: 100 }, database.url);
    expect(threads.callTotal).toBe(3);
    const byThread = await listThreads({ threadId: input.thread, overdueBefore: new Date(0) }, database.url);
    expect(byThread.threads.map((thread) => [thread.threadKey, thread.calls])).toEqual([[input.thread, 1]]);

    // The run page offers the tool's own resume schema, which a durable run keeps in its internal row.
    const detail = await getRunDetail(input.runId);
    expect(detail!.toolCalls[0]).toMatchObject({ resumeSchema: { required: ["amount"] } });
  });

  it("approve through the console: the tool runs once, the run is gone; approving again is refused", async () => {
    const run = await suspendDemoRun(database.url, "billing", refund("ORD-9511"));
    const outcome = await decide({ action: "approve", ...run.ref }, reviewer("rita"));
    expect(outcome).toMatchObject({ runState: "completed", agentId: "billing" });
    expect(outcome.answer).toBe("Refund re_ord9511 issued: 42.5 EUR for order ORD-9511.");
    // Applied means done: the store no longer shows the call as pending (Mastra deletes a durable
    // run's rows only after its stream ended; the console waits for it).
    expect(await effectsOf(run)).toEqual({ effects: [`billing:issueRefund:${run.ref.toolCallId}`], rows: [] });
    expect((await expectSameListing({ resourceId: run.resource })).total).toBe(0);
    await expect(decide({ action: "approve", ...run.ref }, reviewer("sam"))).rejects.toMatchObject({ code: "already_decided" });
    expect((await effectsOf(run)).effects).toHaveLength(1);
  });

  it("decline with a reason: the tool never runs and the agent hears why", async () => {
    const run = await suspendDemoRun(database.url, "billing", refund("ORD-9521"));
    const outcome = await decide({ action: "decline", ...run.ref, reason: "Outside the refund window" }, reviewer("rita"));
    expect(outcome.answer).toBe("I did not go ahead with issueRefund: Outside the refund window");
    expect(await effectsOf(run)).toEqual({ effects: [], rows: [] });
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: run.ref } })).toMatchObject({
      action: "decline",
      reason: "Outside the refund window",
      state: "applied",
      agentId: "billing",
    });
  });

  it("resume: data the tool's schema refuses changes nothing (Mastra would end the run on it); the right data runs it once", async () => {
    const run = await suspendDemoRun(database.url, "billing", partial("ORD-9531"));
    await expect(decide({ action: "resume", ...run.ref, resumeData: { amount: -5 } }, reviewer("rita"))).rejects.toMatchObject({
      code: "invalid_resume_data",
    });
    await expect(decide({ action: "approve", ...run.ref }, reviewer("rita"))).rejects.toMatchObject({ code: "wrong_kind" });
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.count({ where: { runId: run.runId } })).toBe(0);
    expect((await expectSameListing({ resourceId: run.resource })).runs.map((r) => r.runId)).toEqual([run.runId]);

    const outcome = await decide({ action: "resume", ...run.ref, resumeData: { amount: 20, note: "Half back" } }, reviewer("rita"));
    expect(outcome.answer).toBe("Refunded 20 EUR for order ORD-9531.");
    expect(await effectsOf(run)).toEqual({ effects: [`billing:settlePartialRefund:${run.ref.toolCallId}`], rows: [] });
  });

  it("Mastra continues a durable run's pending call whatever toolCallId it is given: the console never sends an id the run does not wait on", async () => {
    // Through the console: refused at the checks, and again right before sending (a decision
    // recorded for a call the run does not wait on, as one could be after a race), nothing runs.
    const run = await suspendDemoRun(database.url, "billing", refund("ORD-9551"));
    const other = { runId: run.runId, toolCallId: "call_not_this_one" };
    await expect(decide({ action: "approve", ...other }, reviewer("rita"))).rejects.toMatchObject({ code: "tool_call_not_pending" });
    const db = await getDb(database.url);
    const recorded = await recordDecision(
      db,
      { action: "approve", ...other },
      { reviewer: "rita@test.example", action: "approve", outcome: "recorded", ...other, agentId: "billing", toolName: "issueRefund" },
    );
    const mastra = await createConsoleMastra(database.url);
    await expect(carryOut(db, recorded, await resolveOwner("billing", database.url))).rejects.toMatchObject({
      code: "tool_call_not_pending",
    });
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { id: recorded.id } })).toMatchObject({ state: "failed" });
    expect(await effectsOf(run)).toEqual({ effects: [], rows: ["durable-agentic-execution", "durable-agentic-loop"] });

    // Mastra 1.71 itself, given that id, approves the call the run waits on: its tool runs.
    const stream = await mastra.getAgent("billing").approveToolCall(other);
    for await (const _chunk of stream.fullStream as AsyncIterable<unknown>);
    await expect.poll(async () => (await effectsOf(run)).effects).toEqual([`billing:issueRefund:${run.ref.toolCallId}`]);
  });

  it("two approvals in one step: the second waits its turn, then each is decided by another reviewer, each tool once", async () => {
    const text = durable(
      requests.severalRefunds({
        orders: [
          { order: "ORD-9541", amount: "12.00", currency: "EUR" },
          { order: "ORD-9542", amount: "30.00", currency: "EUR" },
        ],
      }),
    ).text;
    const run = await suspendDemoRun(database.url, "billing", text);
    const first = run.ref.toolCallId;
    const before = await getRunDetail(run.runId);
    expect(before!.queuedCalls).toEqual([expect.objectContaining({ toolName: "issueRefund", behind: first })]);
    const second = before!.queuedCalls[0]!.toolCallId;

    await expect(decide({ action: "approve", runId: run.runId, toolCallId: second }, reviewer("bob"))).rejects.toMatchObject({
      code: "call_not_reached",
    });
    expect(await decide({ action: "approve", runId: run.runId, toolCallId: first }, reviewer("rita"))).toMatchObject({
      runState: "waiting-again",
    });
    // Applied, and the store already shows the run waiting on the second call.
    const between = await expectSameListing({ resourceId: run.resource });
    expect(between.runs.map((r) => r.toolCalls.map((call) => [call.toolCallId, call.requiresApproval]))).toEqual([[[second, true]]]);
    expect((await getRunDetail(run.runId))!.queuedCalls).toEqual([]);

    const outcome = await decide({ action: "approve", runId: run.runId, toolCallId: second }, reviewer("bob"));
    expect(outcome).toMatchObject({ runState: "completed" });
    expect(outcome.answer).toContain("for order ORD-9541.");
    expect(outcome.answer).toContain("for order ORD-9542.");
    expect(await effectsOf(run)).toEqual({
      effects: [`billing:issueRefund:${first}`, `billing:issueRefund:${second}`],
      rows: [],
    });
  });
});
