/**
 * A console process killed with SIGKILL mid-decision, then a restarted one: nothing is lost, the
 * call ends up applied or decidable again, and the audit log says which. Real processes, real
 * agents, on SQLite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { approveToolCall as approveAction } from "../../lib/actions/approve-tool-call.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { noteToolRan, recordDecision, transition } from "../../lib/decisions/ledger.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { getRunsPage } from "../../lib/queue/views.ts";
import { runsQuery } from "../../lib/search-params.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { runConsoleProcess } from "../helpers/console-process.ts";
import { crashingConsole } from "../helpers/crash.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

const LEASE_MS = 300;

const runChild = (args: string[], env: Record<string, string> = {}) =>
  runConsoleProcess(args, { DECISION_LEASE_MS: String(LEASE_MS), ...env });

describe.each(["sqlite", "postgres"] as const)("crash between recording and applying on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let reviewer: TestAccount;

  beforeAll(async () => {
    reviewer = await createTestAccount(database.url, "reviewer", "Rita");
  });

  const approveToolCall = (input: Parameters<typeof approveAction>[0]) => runAs(actorOf(reviewer), () => approveAction(input));

  async function state(run: DemoRun) {
    const db = await getDb(database.url);
    return {
      decision: await db.toolCallDecision.findUnique({ where: { runId_toolCallId: run.ref } }),
      effects: await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } }),
      pending: (await listSuspendedRuns({ resourceId: run.resource }, database.url)).total,
      snapshots: await db.workflowSnapshot.count({ where: { runId: run.runId } }),
      audit: (await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } })).map((e) => e.outcome),
    };
  }

  const { killedWhile, restart } = crashingConsole(database, LEASE_MS);
  const killedWhileDeciding = (run: DemoRun, failpoint: string, action = "approve", extra?: string) =>
    killedWhile([action, run.ref.runId, run.ref.toolCallId, ...(extra ? [extra] : [])], failpoint);

  it("a decision recorded but never sent is carried out by the restarted process", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5001"));

    await killedWhileDeciding(run, "after-record");

    expect(await state(run)).toMatchObject({
      decision: { state: "recorded", reviewer: "crash-tester" },
      effects: 0,
      pending: 1,
      audit: ["recorded"],
    });

    expect(await restart()).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });

    const after = await state(run);
    expect(after).toMatchObject({
      decision: { state: "applied", attempts: 1 },
      effects: 1,
      pending: 0,
      audit: ["recorded", "recovered", "applied"],
    });
    expect(after.decision!.answer).toBe("Refund re_ord5001 issued: 42.5 EUR for order ORD-5001.");
  });

  it("a run without a thread (an agent used with a resource only) recovers like any other: carried out once", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5002"), "resource-only");
    expect(run.thread).toBe("");

    await killedWhileDeciding(run, "after-record");
    expect(await state(run)).toMatchObject({ decision: { state: "recorded" }, effects: 0, pending: 1 });

    expect(await restart()).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });
    expect(await state(run)).toMatchObject({
      decision: { state: "applied", attempts: 1 },
      effects: 1,
      pending: 0,
      snapshots: 0,
      audit: ["recorded", "recovered", "applied"],
    });
  });

  it("an approval interrupted after it was sent is released, says so, and can be decided again", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5002"));

    await killedWhileDeciding(run, "after-send");
    expect(await state(run)).toMatchObject({ decision: { state: "applying" }, pending: 1 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 1, applied: 0, failed: 0 });
    const released = await state(run);
    expect(released).toMatchObject({ decision: { state: "released" }, pending: 1, audit: ["recorded", "interrupted"] });
    const db = await getDb(database.url);
    expect((await db.auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "interrupted" } })).message).toMatch(
      /The tool may have run; check its effect before deciding again/,
    );

    // Approving again needs the reviewer to confirm the risk; without it nothing happens.
    expect(await approveToolCall(run.ref)).toMatchObject({
      ok: false,
      error: {
        code: "confirmation_required",
        message: expect.stringMatching(/may already have run/),
        priorDecision: { reviewer: "crash-tester" },
      },
    });
    expect(await state(run)).toMatchObject({ decision: { state: "released" }, effects: released.effects, pending: 1 });
    expect(await approveToolCall({ ...run.ref, confirmMayHaveRun: true })).toMatchObject({
      ok: true,
      data: { answer: expect.stringContaining("re_ord5002") },
    });
    const after = await state(run);
    expect(after).toMatchObject({ decision: { state: "applied", reviewer: "rita@test.example" }, pending: 0 });
    expect(after.effects).toBe(released.effects + 1);
    expect(after.audit).toEqual(["recorded", "interrupted", "refused", "recorded", "applied"]);
    expect(
      (await db.auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "recorded", reviewer: "rita@test.example" } })).message,
    ).toMatch(/confirmed that the tool may already have run/);
  });

  it("a tool that ran before the crash is flagged in the queue, and its idempotency key keeps a confirmed second approval from repeating it", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5005"));

    await killedWhileDeciding(run, "after-effect");
    expect(await state(run)).toMatchObject({ decision: { state: "applying", toolRanAt: null }, effects: 1, pending: 1 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 1, applied: 0, failed: 0 });
    // The queue (and GET /api/runs, which serves the same page) says the tool may have run.
    process.env.DATABASE_URL = database.url;
    const page = await getRunsPage(runsQuery.parse({ resourceId: run.resource }));
    expect(page.runs[0]!.toolCalls[0]).toMatchObject({
      toolCallId: run.ref.toolCallId,
      interrupted: { reviewer: "crash-tester", action: "approve" },
    });

    expect(await approveToolCall(run.ref)).toMatchObject({ ok: false, error: { code: "confirmation_required" } });
    expect(await approveToolCall({ ...run.ref, confirmMayHaveRun: true })).toMatchObject({
      ok: true,
      data: { answer: expect.stringContaining("re_ord5005") },
    });
    expect(await state(run)).toMatchObject({ decision: { state: "applied" }, effects: 1, pending: 0, snapshots: 0 });
  });

  it("a crash after the agent reported the tool's result ends applied: never released, the run settled", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5006"));

    await killedWhileDeciding(run, "after-tool-result");
    const killed = await state(run);
    // Mastra goes on with the run while we note its tool result: by the kill it may already have
    // finished it (on PostgreSQL its statements go out beside ours). Either way the tool ran once
    // and the decision must end applied, never released to be run again.
    expect(killed).toMatchObject({ decision: { state: "applying", toolRanAt: expect.any(Date) }, effects: 1 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 0, applied: 1, failed: 0 });
    const after = await state(run);
    expect(after).toMatchObject({ decision: { state: "applied" }, effects: 1, pending: 0, snapshots: 0 });
    expect(after.audit).toEqual(["recorded", "recovered"]);
    // Nobody can run the tool again through the console.
    expect(await approveToolCall({ ...run.ref, confirmMayHaveRun: true })).toMatchObject({ ok: false, error: { code: "already_decided" } });
    expect((await state(run)).effects).toBe(1);
  });

  it("a crash after the tool result was noted, with the run still waiting on the call, ends applied and settles the run", async () => {
    // The state the crash above leaves when it lands before Mastra stores the finished run, built
    // deterministically with the ledger's own steps: recorded, applying (lease already out), noted.
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5008"));
    const db = await getDb(database.url);
    const call = { agentId: "refunds", threadId: run.thread, resourceId: run.resource, toolName: "issueRefund" };
    const recorded = await recordDecision(
      db,
      { action: "approve", ...run.ref },
      { reviewer: "crash-tester", action: "approve", outcome: "recorded", ...run.ref, ...call },
    );
    await transition(db, recorded, "recorded", "applying", { attempts: 1, leaseUntil: new Date(Date.now() - 1_000) });
    await noteToolRan(db, { ...recorded, state: "applying" });
    expect(await state(run)).toMatchObject({ decision: { state: "applying", toolRanAt: expect.any(Date) }, pending: 1 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 0, applied: 1, failed: 0 });
    expect(await state(run)).toMatchObject({ decision: { state: "applied" }, pending: 0, snapshots: 0, audit: ["recorded", "recovered"] });
    const recovered = await db.auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "recovered" } });
    expect(recovered.message).toMatch(/^The tool ran \(the agent reported its result at .*\) before the server stopped/);
    expect(await approveToolCall({ ...run.ref, confirmMayHaveRun: true })).toMatchObject({ ok: false, error: { code: "already_decided" } });
  });

  it("a crash while Mastra deletes the finished run's snapshots ends applied, with the orphaned snapshot settled", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5007"));

    await killedWhileDeciding(run, "after-outer-snapshot-deleted");
    expect(await state(run)).toMatchObject({ decision: { state: "applying" }, effects: 1, pending: 0, snapshots: 1 });

    expect(await restart()).toEqual({ carriedOut: 0, released: 0, applied: 1, failed: 0 });
    expect(await state(run)).toMatchObject({ decision: { state: "applied" }, effects: 1, pending: 0, snapshots: 0 });
  });

  it("a decline interrupted after it was sent is carried out again: a decline never runs the tool", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5003"));

    await killedWhileDeciding(run, "after-send", "decline", "Fraud suspected");

    expect(await restart()).toEqual({ carriedOut: 1, released: 0, applied: 0, failed: 0 });
    const after = await state(run);
    expect(after).toMatchObject({ decision: { state: "applied", reason: "Fraud suspected" }, effects: 0, pending: 0 });
    expect(after.decision!.answer).toBe("I did not go ahead with issueRefund: Fraud suspected");
    expect(after.audit).toEqual(["recorded", "recovered", "applied"]);
  });

  it("a decision whose lease has not expired is left alone", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5004"));
    const killed = await runChild([database.url, "approve", run.ref.runId, run.ref.toolCallId], {
      APPROVALS_FAILPOINT: "after-record",
      DECISION_LEASE_MS: "60000",
    });
    expect(killed.signal).toBe("SIGKILL");

    expect(await restart()).toEqual({ carriedOut: 0, released: 0, applied: 0, failed: 0 });
    expect(await state(run)).toMatchObject({ decision: { state: "recorded" }, pending: 1 });
    // Everyone sees who holds it: the queue (and GET /api/runs) names the reviewer deciding it.
    const page = await getRunsPage(runsQuery.parse({ resourceId: run.resource }));
    expect(page.runs[0]!.toolCalls[0]).toMatchObject({ inFlight: { reviewer: "crash-tester", action: "approve" } });
    expect(page.runs[0]!.toolCalls[0]!.interrupted).toBeUndefined();
    // Meanwhile nobody else can decide it: the recorded decision holds the call.
    expect(await approveToolCall(run.ref)).toMatchObject({
      ok: false,
      error: { code: "already_decided", priorDecision: { reviewer: "crash-tester" } },
    });
  });
});
