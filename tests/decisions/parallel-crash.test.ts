/**
 * Crashes while deciding one of several calls of one step (the model called two refunds at once):
 * recovery ends the decided call in a true state and never drops the call still to come. Real
 * processes killed with SIGKILL, real demo agents, on SQLite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import { decide } from "../../lib/decisions/decide.ts";
import { getDb } from "../../lib/db/client.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { getRunDetail } from "../../lib/queue/views.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { crashingConsole } from "../helpers/crash.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("a crash while deciding one of two parallel calls on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  const twoRefunds = (first: string, second: string) =>
    suspendDemoRun(
      database.url,
      "refunds",
      requests.severalRefunds({
        orders: [
          { order: first, amount: "12.00", currency: "EUR" },
          { order: second, amount: "30.00", currency: "EUR" },
        ],
      }).text,
    );

  async function secondCallOf(run: DemoRun): Promise<string> {
    return (await getRunDetail(run.runId))!.queuedCalls[0]!.toolCallId;
  }

  async function state(run: DemoRun, toolCallId: string) {
    const db = await getDb(database.url);
    const listed = await listSuspendedRuns({ resourceId: run.resource }, database.url);
    return {
      decision: await db.toolCallDecision.findUnique({ where: { runId_toolCallId: { runId: run.runId, toolCallId } } }),
      effects: await db.toolEffect.count({ where: { toolCallId } }),
      waitsOn: listed.runs.flatMap((r) => r.toolCalls.map((call) => call.toolCallId)),
      snapshots: await db.workflowSnapshot.count({ where: { runId: run.runId } }),
    };
  }

  const { killedWhile, restart } = crashingConsole(database);
  const killedWhileApproving = (run: DemoRun, toolCallId: string, failpoint: string) =>
    killedWhile(["approve", run.runId, toolCallId], failpoint);

  /** The second call, decided normally: its tool runs once and the run finishes. */
  async function finishWithSecond(run: DemoRun, second: string) {
    expect(await decide({ action: "approve", runId: run.runId, toolCallId: second }, { reviewer: "bob@test.example" })).toMatchObject({
      runState: "completed",
    });
    expect(await state(run, second)).toMatchObject({ decision: { state: "applied" }, effects: 1, waitsOn: [], snapshots: 0 });
  }

  it("the run moved on to the next call of its step when the server died: applied, and the next call stays decidable", async () => {
    const run = await twoRefunds("ORD-8301", "ORD-8302");
    const [first, second] = [run.ref.toolCallId, await secondCallOf(run)];

    await killedWhileApproving(run, first, "after-stream-read");
    expect(await state(run, first)).toMatchObject({ decision: { state: "applying" }, effects: 1, waitsOn: [second], snapshots: 2 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 0, applied: 1, failed: 0 });
    // Settling left the run alone: it waits on its sibling call, which nobody decided yet.
    expect(await state(run, first)).toMatchObject({ decision: { state: "applied" }, effects: 1, waitsOn: [second], snapshots: 2 });
    await finishWithSecond(run, second);
    expect((await state(run, first)).effects).toBe(1);
  });

  it("a decision on the first call recorded but never sent is carried out; the second call comes up after it", async () => {
    const run = await twoRefunds("ORD-8303", "ORD-8304");
    const [first, second] = [run.ref.toolCallId, await secondCallOf(run)];

    await killedWhileApproving(run, first, "after-record");
    expect(await state(run, first)).toMatchObject({ decision: { state: "recorded" }, effects: 0, waitsOn: [first] });

    expect(await restart()).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });
    expect(await state(run, first)).toMatchObject({ decision: { state: "applied" }, effects: 1, waitsOn: [second], snapshots: 2 });
    await finishWithSecond(run, second);
  });

  it("the first call's tool ran before the crash: released as interrupted, the second call still queued; a confirmed approval repeats nothing", async () => {
    const run = await twoRefunds("ORD-8305", "ORD-8306");
    const [first, second] = [run.ref.toolCallId, await secondCallOf(run)];

    await killedWhileApproving(run, first, "after-effect");
    expect(await restart()).toEqual({ carriedOut: 0, released: 1, applied: 0, failed: 0 });
    expect(await state(run, first)).toMatchObject({ decision: { state: "released" }, effects: 1, waitsOn: [first], snapshots: 2 });
    expect(await secondCallOf(run)).toBe(second);

    await decide({ action: "approve", runId: run.runId, toolCallId: first, confirmMayHaveRun: true }, { reviewer: "rita@test.example" });
    expect(await state(run, first)).toMatchObject({ decision: { state: "applied" }, effects: 1, waitsOn: [second] });
    await finishWithSecond(run, second);
  });
});
