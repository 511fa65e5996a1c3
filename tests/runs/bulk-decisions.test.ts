/**
 * Bulk decisions (Approve selected / Decline selected) through the decideInBulk server action, on
 * real demo agents and a real store, on SQLite and PostgreSQL: each call goes through the same
 * first-wins path as a single decision and gets its own result and its own audit entries, tied
 * together by the batch id. (Requests refused as a whole: bulk-refusals.test.ts.)
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { approveToolCall } from "../../lib/actions/approve-tool-call.ts";
import { listAuditEvents } from "../../lib/audit/queries.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import type { BulkOutcome } from "../../lib/decisions/types.ts";
import { createConsoleMastra, findAgentById, getAgentMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { auditQuery } from "../../lib/search-params.ts";
import { actorOf } from "../helpers/accounts.ts";
import { useBulkFixture, type Ref } from "../helpers/bulk.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("bulk decisions on %s", { timeout: 120_000 }, (kind) => {
  const f = useBulkFixture(kind);
  const { bulk, refunds, auditOfBatch, effectsOf } = f;

  it("approves a request of 1 call, with its result and its own audit entries carrying the batch id", async () => {
    const [call] = await refunds(1);
    const result = await bulk({ action: "approve", calls: [call] });
    expect(result).toEqual({
      ok: true,
      data: {
        batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        action: "approve",
        counts: { applied: 1, awaiting_approvals: 0, already_decided: 0, refused: 0, failed: 0 },
        results: [
          {
            ...call,
            toolName: "issueRefund",
            status: "applied",
            answer: expect.stringMatching(/^Refund re_ord\d+ issued: 42.5 EUR/),
            runState: "completed",
          },
        ],
      },
    });
    const { batchId } = (result as { data: BulkOutcome }).data;
    expect((await auditOfBatch(batchId)).byCall).toEqual({ [call!.toolCallId]: ["recorded", "applied"] });
    expect(await effectsOf([call!])).toEqual([call!.toolCallId]);
    const db = await getDb(f.database.url);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call! } })).toMatchObject({
      state: "applied",
      reviewer: f.reviewer.email,
      batchId,
    });
    // The history shows the batch, and filters by it.
    const history = await listAuditEvents(auditQuery.parse({ batch: batchId }), f.database.url);
    expect(history.events.map((event) => [event.outcome, event.batchId])).toEqual([
      ["applied", batchId],
      ["recorded", batchId],
    ]);
  });

  it("approves a request of 100 calls: each applied once, its tool run once, its own audit entries", async () => {
    const calls = await refunds(100);
    const result = await bulk({ action: "approve", calls });
    expect(result.ok).toBe(true);
    const { batchId, results, counts } = (result as { data: BulkOutcome }).data;
    expect(counts).toEqual({ applied: 100, awaiting_approvals: 0, already_decided: 0, refused: 0, failed: 0 });
    expect(results.map((r) => [r.runId, r.toolCallId, r.status])).toEqual(calls.map((c) => [c.runId, c.toolCallId, "applied"]));
    expect(await effectsOf(calls)).toEqual(calls.map((c) => c.toolCallId).sort());
    const { rows, byCall } = await auditOfBatch(batchId);
    expect(rows).toHaveLength(200);
    expect(Object.keys(byCall).sort()).toEqual(calls.map((c) => c.toolCallId).sort());
    for (const outcomes of Object.values(byCall)) expect(outcomes).toEqual(["recorded", "applied"]);
    const db = await getDb(f.database.url);
    expect(await db.toolCallDecision.count({ where: { batchId, state: "applied", attempts: 1 } })).toBe(100);
    expect(await db.workflowSnapshot.count({ where: { runId: { in: calls.map((c) => c.runId) } } })).toBe(0);
  });

  it("decides a mix of valid, unknown, already-decided and wrong-kind calls independently, in request order", async () => {
    const [valid, decidedBefore, secondValid] = await refunds(3);
    const suspended = await suspendDemoRun(f.database.url, "shipping", shippingRequest("ORD-88"));
    expect(await runAs(actorOf(f.other), () => approveToolCall(decidedBefore!))).toMatchObject({ ok: true });
    const unknownRun = { runId: randomUUID(), toolCallId: "call_nope" };
    const unknownCall = { runId: secondValid!.runId, toolCallId: "call_nope" };
    const result = await bulk({ action: "approve", calls: [valid, unknownRun, decidedBefore, suspended.ref, unknownCall, secondValid] });
    expect(result.ok).toBe(true);
    const { batchId, results, counts } = (result as { data: BulkOutcome }).data;
    expect(counts).toEqual({ applied: 2, awaiting_approvals: 0, already_decided: 1, refused: 3, failed: 0 });
    expect(results).toEqual([
      expect.objectContaining({ ...valid, status: "applied", toolName: "issueRefund" }),
      { ...unknownRun, status: "refused", code: "run_not_found", message: expect.stringMatching(/No suspended run/) },
      {
        ...decidedBefore,
        toolName: "issueRefund",
        status: "already_decided",
        code: "already_decided",
        message: expect.stringMatching(/^otto@test\.example already approved this tool call at /),
        decidedBy: f.other.email,
        decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      {
        ...suspended.ref,
        toolName: "chooseShippingAddress",
        status: "refused",
        code: "wrong_kind",
        message: expect.stringMatching(/waits for data: resume it with data/),
      },
      {
        ...unknownCall,
        status: "refused",
        code: "tool_call_not_pending",
        message: expect.stringMatching(/not waiting on tool call "call_nope"/),
      },
      expect.objectContaining({ ...secondValid, status: "applied" }),
    ]);
    // The tools ran once per call: the two valid ones now, the earlier decision's once, the shipping call never.
    expect(await effectsOf([valid!, decidedBefore!, secondValid!, suspended.ref])).toEqual(
      [valid!.toolCallId, decidedBefore!.toolCallId, secondValid!.toolCallId].sort(),
    );
    // Each call has its own audit entries, all with the batch id.
    const { rows, byRunCall } = await auditOfBatch(batchId);
    const key = (ref: { runId: string; toolCallId: string }) => `${ref.runId}/${ref.toolCallId}`;
    // The calls that named nothing waiting share one row for the request (lib/decisions/bulk-refusals.ts).
    expect(byRunCall).toEqual({
      [key(valid!)]: ["recorded", "applied"],
      [key(decidedBefore!)]: ["conflict:already_decided"],
      [key(suspended.ref)]: ["refused:wrong_kind"],
      [key(secondValid!)]: ["recorded", "applied"],
      "/": ["refused"],
    });
    expect(rows.find((row) => row.runId === "")?.message).toBe(
      `Bulk approve: 2 of 6 calls name no waiting call: ${key(unknownRun)} (run_not_found), ${key(unknownCall)} (tool_call_not_pending).`,
    );
    expect(rows.every((row) => row.reviewer === f.reviewer.email)).toBe(true);
    // The shipping call still waits for its data; the other reviewer's decision is untouched.
    const db = await getDb(f.database.url);
    expect(await db.toolCallDecision.findUnique({ where: { runId_toolCallId: suspended.ref } })).toBeNull();
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: decidedBefore! } })).toMatchObject({
      reviewer: f.other.email,
      batchId: null,
    });
  });

  it("reports a call the agent failed to carry out as failed, decidable again, and carries out the others", async () => {
    const [failing, fine] = await refunds(2);
    const agent = findAgentById((await getAgentMastra("refunds", f.database.url))!, "refunds")!;
    const original = agent.approveToolCall.bind(agent);
    const spy = vi.spyOn(agent, "approveToolCall").mockImplementation(((target: Ref) => {
      if (target.runId === failing!.runId) throw new Error("the model provider is down");
      return original(target as never);
    }) as never);
    try {
      const { data } = (await bulk({ action: "approve", calls: [failing, fine] })) as { data: BulkOutcome };
      expect(data.counts).toEqual({ applied: 1, awaiting_approvals: 0, already_decided: 0, refused: 0, failed: 1 });
      expect(data.results[0]).toEqual({
        ...failing,
        toolName: "issueRefund",
        status: "failed",
        code: "agent_failed",
        message: expect.stringMatching(/the model provider is down.* The tool call is decidable again\.$/),
      });
      expect(data.results[1]).toMatchObject({ ...fine, status: "applied" });
      expect((await auditOfBatch(data.batchId)).byCall[failing!.toolCallId]).toEqual(["recorded", "failed:agent_failed"]);
    } finally {
      spy.mockRestore();
    }
    expect(await effectsOf([failing!, fine!])).toEqual([fine!.toolCallId]);
    // Released, so a later request decides it.
    expect((await bulk({ action: "approve", calls: [failing] })) as { data: BulkOutcome }).toMatchObject({
      data: { counts: { applied: 1 } },
    });
  });

  it("declines selected calls with one reason for all, the tools never running", async () => {
    const calls = await refunds(3);
    const result = await bulk({ action: "decline", calls, reason: "  Duplicate tickets  " });
    const { batchId, counts, results } = (result as { data: BulkOutcome }).data;
    expect(counts).toEqual({ applied: 3, awaiting_approvals: 0, already_decided: 0, refused: 0, failed: 0 });
    expect(results.map((r) => r.answer)).toEqual(Array(3).fill("I did not go ahead with issueRefund: Duplicate tickets"));
    expect(await effectsOf(calls)).toEqual([]);
    const { rows } = await auditOfBatch(batchId);
    expect(rows.map((row) => [row.action, row.reason])).toEqual(Array(6).fill(["decline", "Duplicate tickets"]));
  });

  it("runs the calls of one memory thread one after the other", async () => {
    // Two runs waiting on one thread (each suspended by its own Mastra instance, as two requests would be).
    const memory = { thread: `ticket-${randomUUID()}`, resource: `cust_${randomUUID()}` };
    const calls: Ref[] = [];
    for (const orderId of ["ORD-T1", "ORD-T2"]) {
      const agent = (await createConsoleMastra(f.database.url)).getAgent("refunds");
      const { runId, toolCallId } = await runUntilWaiting(agent, refundRequest(orderId), memory);
      calls.push({ runId, toolCallId });
    }
    const [more] = await refunds(1);
    const result = await bulk({ action: "approve", calls: [...calls, more] });
    expect((result as { data: BulkOutcome }).data.counts).toEqual({
      applied: 3,
      awaiting_approvals: 0,
      already_decided: 0,
      refused: 0,
      failed: 0,
    });
    expect(await effectsOf([...calls, more!])).toHaveLength(3);
    // The thread's second run was recorded only once the first was carried out.
    const db = await getDb(f.database.url);
    const [first, second] = await Promise.all(
      calls.map((call) => db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call } })),
    );
    expect(second!.decidedAt.getTime()).toBeGreaterThanOrEqual(first!.updatedAt.getTime());
  });
});
