/**
 * Crashes while deciding a durable agent's call: a console process killed with SIGKILL at the
 * failpoints the other crash tests use, then recovery in a fresh process (no in-memory run
 * registry, pubsub or cache of the killed one) ends each decision in a true state and the tool runs
 * once. The demo's durable `billing` agent on the scripted model, SQLite and PostgreSQL.
 */
import { AGENT_LOOP_WORKFLOWS } from "@agent-approvals/mastra-store";
import { describe, expect, it } from "vitest";
import { decide } from "../../lib/decisions/decide.ts";
import { getDb } from "../../lib/db/client.ts";
import { durable, requests } from "../../lib/mastra/demo/requests.ts";
import { getRunDetail } from "../../lib/queue/views.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { crashingConsole } from "../helpers/crash.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("a crash while deciding a durable agent's call on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  const refund = (order: string) => suspendDemoRun(database.url, "billing", durable(requests.refund({ order })).text);

  async function state(run: DemoRun, toolCallId = run.ref.toolCallId) {
    const db = await getDb(database.url);
    const listed = await listSuspendedRuns({ resourceId: run.resource }, database.url);
    return {
      decision: await db.toolCallDecision.findUnique({ where: { runId_toolCallId: { runId: run.runId, toolCallId } } }),
      effects: await db.toolEffect.count({ where: { toolCallId } }),
      waitsOn: listed.runs.flatMap((r) => r.toolCalls.map((call) => call.toolCallId)),
      snapshots: await db.workflowSnapshot.count({ where: { runId: run.runId } }),
      outerSnapshots: await db.workflowSnapshot.count({ where: { runId: run.runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } } }),
    };
  }

  const { killedWhile, restart } = crashingConsole(database);

  it("recorded, then killed before it was sent: recovery in a fresh process carries it out once", async () => {
    const run = await refund("ORD-9601");
    await killedWhile(["approve", run.runId, run.ref.toolCallId], "after-record");
    expect(await state(run)).toMatchObject({ decision: { state: "recorded" }, effects: 0, waitsOn: [run.ref.toolCallId], snapshots: 2 });

    expect(await restart()).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });
    expect(await state(run)).toMatchObject({
      decision: { state: "applied", agentId: "billing", answer: "Refund re_ord9601 issued: 42.5 EUR for order ORD-9601." },
      effects: 1,
      waitsOn: [],
      snapshots: 0,
    });
  });

  it("resume data recorded, then killed: recovery resumes the run with it, the tool runs once", async () => {
    const run = await suspendDemoRun(database.url, "billing", durable(requests.partialRefund({ order: "ORD-9602" })).text);
    await killedWhile(["resume", run.runId, run.ref.toolCallId, JSON.stringify({ amount: 12.5 })], "after-record");
    expect(await restart()).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });
    expect(await state(run)).toMatchObject({
      decision: { state: "applied", answer: "Refunded 12.5 EUR for order ORD-9602." },
      effects: 1,
      snapshots: 0,
    });
  });

  it("killed after the agent's answer was read: the run had finished, recovery records it applied and runs nothing", async () => {
    const run = await refund("ORD-9603");
    await killedWhile(["approve", run.runId, run.ref.toolCallId], "after-stream-read");
    // The console waited for Mastra to delete the finished run's outer snapshot before going on: nothing
    // is left pending. Mastra deletes the inner one on its own time (the kill may come first); recovery
    // removes what is left of a finished run.
    expect(await state(run)).toMatchObject({ decision: { state: "applying" }, effects: 1, waitsOn: [], outerSnapshots: 0 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 0, applied: 1, failed: 0 });
    expect(await state(run)).toMatchObject({ decision: { state: "applied" }, effects: 1, waitsOn: [], snapshots: 0 });
  });

  it("killed while the tool ran: released as interrupted; a confirmed approval repeats nothing", async () => {
    const run = await refund("ORD-9604");
    await killedWhile(["approve", run.runId, run.ref.toolCallId], "after-effect");
    expect(await restart()).toEqual({ carriedOut: 0, released: 1, applied: 0, failed: 0 });
    expect(await state(run)).toMatchObject({ decision: { state: "released" }, effects: 1, waitsOn: [run.ref.toolCallId], snapshots: 2 });

    await expect(decide({ action: "approve", ...run.ref }, { reviewer: "rita@test.example" })).rejects.toMatchObject({
      code: "confirmation_required",
    });
    const outcome = await decide({ action: "approve", ...run.ref, confirmMayHaveRun: true }, { reviewer: "rita@test.example" });
    expect(outcome).toMatchObject({ runState: "completed" });
    expect(await state(run)).toMatchObject({ decision: { state: "applied" }, effects: 1, waitsOn: [], snapshots: 0 });
  });

  it("one of two parallel calls, killed after its answer: applied, and the next call stays decidable", async () => {
    const run = await suspendDemoRun(
      database.url,
      "billing",
      durable(
        requests.severalRefunds({
          orders: [
            { order: "ORD-9605", amount: "12.00", currency: "EUR" },
            { order: "ORD-9606", amount: "30.00", currency: "EUR" },
          ],
        }),
      ).text,
    );
    const first = run.ref.toolCallId;
    const second = (await getRunDetail(run.runId))!.queuedCalls[0]!.toolCallId;
    await killedWhile(["approve", run.runId, first], "after-stream-read");
    expect(await state(run, first)).toMatchObject({ decision: { state: "applying" }, effects: 1, waitsOn: [second], snapshots: 2 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 0, applied: 1, failed: 0 });
    expect(await state(run, first)).toMatchObject({ decision: { state: "applied" }, waitsOn: [second], snapshots: 2 });
    expect(await decide({ action: "approve", runId: run.runId, toolCallId: second }, { reviewer: "bob@test.example" })).toMatchObject({
      runState: "completed",
    });
    expect(await state(run, second)).toMatchObject({ decision: { state: "applied" }, effects: 1, waitsOn: [], snapshots: 0 });
    expect((await state(run, first)).effects).toBe(1);
  });
});
