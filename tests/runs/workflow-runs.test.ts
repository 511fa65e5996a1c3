/**
 * Plain Mastra workflows whose step calls suspend() (the demo refund-approval workflow): listed in
 * the same queue as agent runs, exactly as Mastra's own `listWorkflowRuns({ status: "suspended" })`
 * lists them, and resumed through the workflow's run with the step's schema checked, first wins, the
 * step's effect once. A nested workflow is listed once, through its outer run. SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { Mastra } from "@mastra/core/mastra";
import { createStep, createWorkflow } from "@mastra/core/workflows";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decide } from "../../lib/decisions/decide.ts";
import { DecisionError } from "../../lib/decisions/types.ts";
import { getDb } from "../../lib/db/client.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { startUntilSuspended } from "../../lib/mastra/demo/run-until-waiting.ts";
import type { RefundApprovalInput } from "../../lib/mastra/demo/workflows.ts";
import { getRunDetail } from "../../lib/queue/views.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { listThreads } from "../../lib/runs/list-threads.ts";
import { createMastraStorage } from "../../lib/store/index.ts";
import { useTestDatabase } from "../helpers/databases.ts";

const OWNER = "workflow:refund-approval";
const reviewer = { reviewer: "wendy@test.example" };

describe.each(["sqlite", "postgres"] as const)("workflow runs on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  async function waitingRefund(resource = `cust_${randomUUID().slice(0, 8)}`, amount = 900) {
    const mastra = await createConsoleMastra(database.url);
    const input: RefundApprovalInput = {
      orderId: `ORD-${amount}`,
      customerEmail: "w@customer.example",
      amount,
      currency: "EUR",
      reason: "broken",
    };
    const waiting = await startUntilSuspended(mastra.getWorkflow("refundApproval"), input, { resource, databaseUrl: database.url });
    return { ...waiting, resource, mastra, ref: { runId: waiting.runId, toolCallId: waiting.toolCallId } };
  }

  const effectsOf = async (runId: string) =>
    (await getDb(database.url)).toolEffect.count({ where: { toolCallId: `${runId}:manager-approval` } });

  it("lists suspended steps as Mastra's listWorkflowRuns() does: same runs, totals, payloads; as their own shape", async () => {
    const resource = `cust_${randomUUID().slice(0, 8)}`;
    const runs = [await waitingRefund(resource, 700), await waitingRefund(resource, 800), await waitingRefund(undefined, 950)];
    const workflow = runs[0]!.mastra.getWorkflow("refundApproval");
    for (const filter of [{}, { resourceId: resource }, { resourceId: resource, perPage: 1, page: 1 }]) {
      const theirs = await workflow.listWorkflowRuns({ status: "suspended", ...filter });
      const ours = await listSuspendedRuns({ ...filter, agentId: OWNER }, database.url);
      expect(ours.total).toBe(theirs.total);
      expect(ours.runs.map((run) => run.runId)).toEqual(theirs.runs.map((run) => run.runId));
      for (const run of ours.runs) {
        const snapshot = theirs.runs.find((their) => their.runId === run.runId)!.snapshot as { context: Record<string, any> };
        expect(run).toMatchObject({ shape: "workflow", agentId: OWNER, status: "suspended" });
        expect(run.toolCalls).toEqual([
          {
            toolCallId: `manager-approval@${snapshot.context["manager-approval"].suspendedAt}`,
            toolName: "manager-approval",
            requiresApproval: false,
            step: ["manager-approval"],
            suspendPayload: snapshot.context["manager-approval"].suspendPayload,
          },
        ]);
      }
    }
    // In the queue beside agent runs, under No thread; an agent's filter leaves them out.
    const queue = await listThreads({ resourceId: resource, overdueBefore: new Date(0) }, database.url);
    expect(queue).toMatchObject({ threadTotal: 1, callTotal: 2, threads: [{ threadKey: "", calls: 2 }] });
    expect((await listSuspendedRuns({ agentId: "refunds", resourceId: resource }, database.url)).total).toBe(0);
    // The run page gets the step's resume schema from the workflow (Mastra does not store it).
    const detail = await getRunDetail(runs[0]!.runId, database.url);
    expect(detail?.toolCalls[0]?.resumeSchema).toMatchObject({ type: "object", required: ["approved"], additionalProperties: false });
  });

  it("resumes the step through the workflow's run: the step's effect once, the run ends, a second decision is told who won", async () => {
    const run = await waitingRefund();
    const outcome = await decide({ action: "resume", ...run.ref, resumeData: { approved: true, note: "goodwill" } }, reviewer);
    expect(outcome).toMatchObject({ runState: "completed", agentId: OWNER });
    expect(await effectsOf(run.runId)).toBe(1);
    const ended = await run.mastra.getWorkflow("refundApproval").getWorkflowRunById(run.runId);
    expect(ended?.status).toBe("success");
    expect((await listSuspendedRuns({ resourceId: run.resource }, database.url)).total).toBe(0);
    const second = decide({ action: "resume", ...run.ref, resumeData: { approved: false } }, { reviewer: "otto@test.example" });
    await expect(second).rejects.toMatchObject({
      code: "already_decided",
      message: expect.stringMatching(/^wendy@test\.example already resumed/),
    });
    expect(await effectsOf(run.runId)).toBe(1);
    const db = await getDb(database.url);
    const audit = await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } });
    expect(audit.map((event) => [event.outcome, event.agentId, event.toolName])).toEqual([
      ["recorded", OWNER, "manager-approval"],
      ["applied", OWNER, "manager-approval"],
      ["conflict", OWNER, "manager-approval"],
    ]);
  });

  it("refuses what the step cannot take before recording anything: approve/decline, data against its schema", async () => {
    const run = await waitingRefund();
    await expect(decide({ action: "approve", ...run.ref }, reviewer)).rejects.toMatchObject({
      code: "wrong_kind",
      message: 'Workflow step "manager-approval" waits for data: resume it with data (a step cannot be approved or declined).',
    });
    await expect(decide({ action: "decline", ...run.ref, reason: "no" }, reviewer)).rejects.toMatchObject({ code: "wrong_kind" });
    const invalid = decide({ action: "resume", ...run.ref, resumeData: { approved: "yes", extra: 1 } }, reviewer);
    await expect(invalid).rejects.toBeInstanceOf(DecisionError);
    await expect(invalid).rejects.toMatchObject({ code: "invalid_resume_data", message: expect.stringMatching(/approved/) });
    const unknownStep = decide({ action: "resume", runId: run.runId, toolCallId: "settle-refund", resumeData: {} }, reviewer);
    await expect(unknownStep).rejects.toMatchObject({ code: "tool_call_not_pending" });
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.count({ where: { runId: run.runId } })).toBe(0);
    // Nothing changed: it still waits. Resumed with approved=false, nothing is refunded.
    expect(await decide({ action: "resume", ...run.ref, resumeData: { approved: false } }, reviewer)).toMatchObject({
      runState: "completed",
    });
    expect(await effectsOf(run.runId)).toBe(0);
  });

  it("lists a nested workflow's suspended step once, through the outer run, with the step's path", async () => {
    const ask = createStep({
      id: "ask",
      inputSchema: z.object({ n: z.number() }),
      outputSchema: z.object({ n: z.number() }),
      resumeSchema: z.object({ ok: z.boolean() }),
      execute: async ({ inputData, resumeData, suspend }) => (resumeData ? inputData : await suspend({ question: "ok?" })),
    });
    const io = { inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ n: z.number() }) };
    const inner = createWorkflow({ id: "inner-check", ...io })
      .then(ask)
      .commit();
    const outer = createWorkflow({ id: "outer-check", ...io })
      .then(inner)
      .commit();
    const mastra = new Mastra({ workflows: { outer, inner }, storage: await createMastraStorage(database.url), logger: false });
    const resource = `cust_${randomUUID().slice(0, 8)}`;
    const waiting = await startUntilSuspended(mastra.getWorkflow("outer"), { n: 1 }, { resource, databaseUrl: database.url });
    expect(waiting.toolCallId).toMatch(/^inner-check\.ask@\d+$/);
    const ours = await listSuspendedRuns({ resourceId: resource }, database.url);
    expect(ours.total).toBe(1);
    expect(ours.runs[0]).toMatchObject({
      agentId: "workflow:outer-check",
      toolCalls: [{ toolCallId: waiting.toolCallId, toolName: "ask", step: ["inner-check", "ask"], suspendPayload: { question: "ok?" } }],
    });
    // Mastra still lists the nested run on its own; the console sets it aside (no owner, no calls).
    expect((await mastra.getWorkflow("inner").listWorkflowRuns({ status: "suspended", resourceId: resource })).total).toBeLessThanOrEqual(
      1,
    );
    const rows = await (
      await getDb(database.url)
    ).workflowSnapshot.findMany({ where: { runId: waiting.runId }, orderBy: { workflowName: "asc" } });
    expect(rows.map((row) => [row.workflowName, row.status, row.agentId, row.toolCallCount])).toEqual([
      ["inner-check", "suspended", null, 0],
      ["outer-check", "suspended", "workflow:outer-check", 1],
    ]);
    // This console does not serve that workflow: deciding is refused with the reason.
    const refused = decide({ action: "resume", runId: waiting.runId, toolCallId: waiting.toolCallId, resumeData: { ok: true } }, reviewer);
    await expect(refused).rejects.toMatchObject({ code: "unknown_agent", message: expect.stringMatching(/workflow "outer-check"/) });
  });

  it("a step that waits again after it was resumed is a new call with an id of its own", async () => {
    const ask = createStep({
      id: "confirm",
      inputSchema: z.object({ n: z.number() }),
      outputSchema: z.object({ n: z.number() }),
      resumeSchema: z.object({ sure: z.boolean() }),
      // Asks until the answer is "sure".
      execute: async ({ inputData, resumeData, suspend }) => (resumeData?.sure ? inputData : await suspend({ question: "sure?" })),
    });
    const io = { inputSchema: z.object({ n: z.number() }), outputSchema: z.object({ n: z.number() }) };
    const workflow = createWorkflow({ id: "confirm-twice", ...io })
      .then(ask)
      .commit();
    const mastra = new Mastra({ workflows: { workflow }, storage: await createMastraStorage(database.url), logger: false });
    const resource = `cust_${randomUUID().slice(0, 8)}`;
    const first = await startUntilSuspended(mastra.getWorkflow("workflow"), { n: 1 }, { resource, databaseUrl: database.url });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await (
      await mastra.getWorkflow("workflow").createRun({ runId: first.runId })
    ).resume({ step: "confirm", resumeData: { sure: false } });
    expect(again.status).toBe("suspended");
    const listed = await listSuspendedRuns({ resourceId: resource }, database.url);
    expect(listed.runs.map((run) => run.runId)).toEqual([first.runId]);
    const [call] = listed.runs[0]!.toolCalls;
    expect(call).toMatchObject({ step: ["confirm"], toolName: "confirm", toolCallId: expect.stringMatching(/^confirm@\d+$/) });
    expect(call!.toolCallId).not.toBe(first.toolCallId);
  });
});
