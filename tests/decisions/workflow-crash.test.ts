/**
 * A server killed while resuming a workflow's suspended step (the demo refund-approval workflow):
 * recovery ends the decision in a true state and the step's effect (the refund) happens once.
 * Real processes killed with SIGKILL at each failpoint, on SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { startUntilSuspended } from "../../lib/mastra/demo/run-until-waiting.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { crashingConsole } from "../helpers/crash.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe.each(["sqlite", "postgres"] as const)("a crash while resuming a workflow step on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const crash = crashingConsole(database);

  async function waitingRefund() {
    const mastra = await createConsoleMastra(database.url);
    const resource = `cust_${randomUUID().slice(0, 8)}`;
    const input = { orderId: "ORD-7700", customerEmail: "c@customer.example", amount: 880, currency: "EUR", reason: "lost" };
    return {
      ...(await startUntilSuspended(mastra.getWorkflow("refundApproval"), input, { resource, databaseUrl: database.url })),
      resource,
    };
  }

  async function killedWhileResuming(run: { runId: string; toolCallId: string }, failpoint: string) {
    await crash.killedWhile(["resume", run.runId, run.toolCallId, JSON.stringify({ approved: true })], failpoint);
    return crash.restart();
  }

  async function state(run: { runId: string; toolCallId: string; resource: string }) {
    const db = await getDb(database.url);
    return {
      decision: (await db.toolCallDecision.findUnique({ where: { runId_toolCallId: { runId: run.runId, toolCallId: run.toolCallId } } }))
        ?.state,
      effects: await db.toolEffect.count({ where: { toolCallId: `${run.runId}:manager-approval` } }),
      listed: (await listSuspendedRuns({ resourceId: run.resource }, database.url)).total,
      status: (await db.workflowSnapshot.findFirst({ where: { runId: run.runId, workflowName: "refund-approval" } }))?.status,
    };
  }

  it("killed after recording, before resuming: recovery resumes it, the refund happens once", async () => {
    const run = await waitingRefund();
    expect(await killedWhileResuming(run, "after-record")).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });
    expect(await state(run)).toEqual({ decision: "applied", effects: 1, listed: 0, status: "success" });
  });

  it("killed inside the step, after its effect: the run is left running, never resumed twice, the refund stays single", async () => {
    const run = await waitingRefund();
    const report = await killedWhileResuming(run, "after-effect");
    // Mastra wrote the run as running when it resumed it: it no longer waits, so nobody may resume it again.
    expect(await state(run)).toMatchObject({ effects: 1, listed: 0, status: "running" });
    expect(report).toEqual({ carriedOut: 0, released: 0, applied: 0, failed: 1 });
    expect((await state(run)).decision).toBe("failed");
    const audit = await (await getDb(database.url)).auditEvent.findFirst({ where: { runId: run.runId, outcome: "failed" } });
    expect(audit?.message).toMatch(/stopped mid-decision and the run is stopped \(running\)/);
  });

  it("killed after the workflow finished, before the decision was marked applied: recovery marks it applied", async () => {
    const run = await waitingRefund();
    expect(await killedWhileResuming(run, "after-stream-read")).toEqual({ carriedOut: 0, released: 0, applied: 1, failed: 0 });
    expect(await state(run)).toEqual({ decision: "applied", effects: 1, listed: 0, status: "success" });
  });
});
