/**
 * Bulk decisions (Approve selected / Decline selected) as the browser and scripts call them: the
 * decideInBulk server action and POST /api/decisions/bulk, on real demo agents and a real store, on
 * SQLite and PostgreSQL. Each call goes through the same first-wins path as a single decision and
 * gets its own result and its own audit entries, tied together by the batch id; a request refused
 * as a whole changes nothing.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { decideInBulk as bulkAction } from "../../lib/actions/decide-in-bulk.ts";
import { approveToolCall } from "../../lib/actions/approve-tool-call.ts";
import { POST as postBulkRoute } from "../../app/api/decisions/bulk/route.ts";
import { listAuditEvents } from "../../lib/audit/queries.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import type { BulkOutcome } from "../../lib/decisions/types.ts";
import { createConsoleMastra, findAgentById, getMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { auditQuery } from "../../lib/search-params.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

type Ref = { runId: string; toolCallId: string };

describe.each(["sqlite", "postgres"] as const)("bulk decisions on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let reviewer: TestAccount;
  let other: TestAccount;
  let support: TestAccount;

  beforeAll(async () => {
    [reviewer, other, support] = await Promise.all([
      createTestAccount(database.url, "reviewer", "Rita"),
      createTestAccount(database.url, "reviewer", "Otto"),
      createTestAccount(database.url, "support", "Sam"),
    ]);
  });

  const previousBudget = process.env.REFUSALS_PER_MINUTE;
  afterEach(() => {
    if (previousBudget === undefined) delete process.env.REFUSALS_PER_MINUTE;
    else process.env.REFUSALS_PER_MINUTE = previousBudget;
  });

  const bulkAs = (account: TestAccount, input: unknown) => runAs(actorOf(account), () => bulkAction(input as never));
  const bulk = (input: unknown) => bulkAs(reviewer, input);

  let order = 0;
  /** `count` refund runs waiting for approval, each on its own thread, on one Mastra instance. */
  async function refunds(count: number): Promise<Ref[]> {
    const agent = (await createConsoleMastra(database.url)).getAgent("refunds");
    const calls: Ref[] = [];
    for (let i = 0; i < count; i++) {
      const memory = { thread: `ticket-${randomUUID()}`, resource: `cust_${randomUUID()}` };
      const { runId, toolCallId } = await runUntilWaiting(agent, refundRequest(`ORD-${++order}`), memory);
      calls.push({ runId, toolCallId });
    }
    return calls;
  }

  /** Everything the store holds, to prove a refused request changed nothing. */
  async function storeState() {
    const db = await getDb(database.url);
    const rows = await db.workflowSnapshot.findMany({ orderBy: [{ runId: "asc" }, { workflowName: "asc" }] });
    return {
      snapshots: rows.map((row) => `${row.workflowName}/${row.runId}/${row.status}/${row.version}/${row.snapshot}`),
      decisions: await db.toolCallDecision.count(),
      effects: await db.toolEffect.count(),
    };
  }

  /** Each call's audit entries of the batch, as [outcome, code] lists keyed by tool call id. */
  async function auditOfBatch(batchId: string) {
    const rows = await (await getDb(database.url)).auditEvent.findMany({ where: { batchId }, orderBy: { id: "asc" } });
    const byCall: Record<string, string[]> = {};
    for (const row of rows) (byCall[row.toolCallId] ??= []).push(row.code ? `${row.outcome}:${row.code}` : row.outcome);
    return { rows, byCall };
  }

  async function effectsOf(calls: Ref[]) {
    const rows = await (await getDb(database.url)).toolEffect.findMany({ where: { toolCallId: { in: calls.map((c) => c.toolCallId) } } });
    return rows.map((row) => row.toolCallId).sort();
  }

  it("refuses a request of 0 calls with a clear error and changes nothing", async () => {
    const before = await storeState();
    const db = await getDb(database.url);
    const audited = await db.auditEvent.count();
    expect(await bulk({ action: "approve", calls: [] })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: "calls must name at least one tool call" },
    });
    expect(await storeState()).toEqual(before);
    expect(await db.auditEvent.count()).toBe(audited + 1);
    expect(await db.auditEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).toMatchObject({
      outcome: "refused",
      code: "invalid_input",
      reviewer: reviewer.email,
      message: expect.stringMatching(/^Bulk approve refused: calls must name at least one tool call/),
    });
  });

  it("approves a request of 1 call, with its result and its own audit entries carrying the batch id", async () => {
    const [call] = await refunds(1);
    const result = await bulk({ action: "approve", calls: [call] });
    expect(result).toEqual({
      ok: true,
      data: {
        batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        action: "approve",
        counts: { applied: 1, already_decided: 0, refused: 0, failed: 0 },
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
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call! } })).toMatchObject({
      state: "applied",
      reviewer: reviewer.email,
      batchId,
    });
    // The history shows the batch, and filters by it.
    const history = await listAuditEvents(auditQuery.parse({ batch: batchId }), database.url);
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
    expect(counts).toEqual({ applied: 100, already_decided: 0, refused: 0, failed: 0 });
    expect(results.map((r) => [r.runId, r.toolCallId, r.status])).toEqual(calls.map((c) => [c.runId, c.toolCallId, "applied"]));
    expect(await effectsOf(calls)).toEqual(calls.map((c) => c.toolCallId).sort());
    const { rows, byCall } = await auditOfBatch(batchId);
    expect(rows).toHaveLength(200);
    expect(Object.keys(byCall).sort()).toEqual(calls.map((c) => c.toolCallId).sort());
    for (const outcomes of Object.values(byCall)) expect(outcomes).toEqual(["recorded", "applied"]);
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.count({ where: { batchId, state: "applied", attempts: 1 } })).toBe(100);
    expect(await db.workflowSnapshot.count({ where: { runId: { in: calls.map((c) => c.runId) } } })).toBe(0);
  });

  it("refuses a request of 101 calls, naming the limit, before touching any of them", async () => {
    const pending = await refunds(2);
    const calls = [...pending, ...Array.from({ length: 99 }, (_, i) => ({ runId: `run-${i}`, toolCallId: `call-${i}` }))];
    const before = await storeState();
    const db = await getDb(database.url);
    const audited = await db.auditEvent.count();
    const result = await bulk({ action: "approve", calls });
    expect(result).toEqual({
      ok: false,
      error: { code: "too_many_calls", message: "At most 100 calls per request; this one has 101. Send them in several requests." },
    });
    expect(await storeState()).toEqual(before);
    // One audit entry for the request, naming a few of its calls; and the calls are still decidable.
    expect(await db.auditEvent.count()).toBe(audited + 1);
    expect((await db.auditEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).message).toMatch(
      new RegExp(
        `^Bulk approve of 101 calls refused: At most 100 .* Calls: ${pending[0]!.runId}/${pending[0]!.toolCallId}, .* and 96 more\\.$`,
      ),
    );
    expect((await bulk({ action: "approve", calls: pending })) as { data: BulkOutcome }).toMatchObject({
      data: { counts: { applied: 2 } },
    });
  });

  it("decides a mix of valid, unknown, already-decided and wrong-kind calls independently, in request order", async () => {
    const [valid, decidedBefore, secondValid] = await refunds(3);
    const suspended = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-88"));
    expect(await runAs(actorOf(other), () => approveToolCall(decidedBefore!))).toMatchObject({ ok: true });
    const unknownRun = { runId: randomUUID(), toolCallId: "call_nope" };
    const unknownCall = { runId: secondValid!.runId, toolCallId: "call_nope" };
    const result = await bulk({ action: "approve", calls: [valid, unknownRun, decidedBefore, suspended.ref, unknownCall, secondValid] });
    expect(result.ok).toBe(true);
    const { batchId, results, counts } = (result as { data: BulkOutcome }).data;
    expect(counts).toEqual({ applied: 2, already_decided: 1, refused: 3, failed: 0 });
    expect(results).toEqual([
      expect.objectContaining({ ...valid, status: "applied", toolName: "issueRefund" }),
      { ...unknownRun, status: "refused", code: "run_not_found", message: expect.stringMatching(/No suspended run/) },
      {
        ...decidedBefore,
        toolName: "issueRefund",
        status: "already_decided",
        code: "already_decided",
        message: expect.stringMatching(/^otto@test\.example already approved this tool call at /),
        decidedBy: other.email,
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
    const { rows, byCall } = await auditOfBatch(batchId);
    expect(byCall).toEqual({
      [valid!.toolCallId]: ["recorded", "applied"],
      call_nope: ["refused:run_not_found", "refused:tool_call_not_pending"],
      [decidedBefore!.toolCallId]: ["conflict:already_decided"],
      [suspended.ref.toolCallId]: ["refused:wrong_kind"],
      [secondValid!.toolCallId]: ["recorded", "applied"],
    });
    expect(rows.every((row) => row.reviewer === reviewer.email)).toBe(true);
    // The shipping call still waits for its data; the other reviewer's decision is untouched.
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.findUnique({ where: { runId_toolCallId: suspended.ref } })).toBeNull();
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: decidedBefore! } })).toMatchObject({
      reviewer: other.email,
      batchId: null,
    });
  });

  it("reports a call the agent failed to carry out as failed, decidable again, and carries out the others", async () => {
    const [failing, fine] = await refunds(2);
    const agent = findAgentById(await getMastra(database.url), "refunds")!;
    const original = agent.approveToolCall.bind(agent);
    const spy = vi.spyOn(agent, "approveToolCall").mockImplementation(((target: Ref) => {
      if (target.runId === failing!.runId) throw new Error("the model provider is down");
      return original(target as never);
    }) as never);
    try {
      const { data } = (await bulk({ action: "approve", calls: [failing, fine] })) as { data: BulkOutcome };
      expect(data.counts).toEqual({ applied: 1, already_decided: 0, refused: 0, failed: 1 });
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
    expect(counts).toEqual({ applied: 3, already_decided: 0, refused: 0, failed: 0 });
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
      const agent = (await createConsoleMastra(database.url)).getAgent("refunds");
      const { runId, toolCallId } = await runUntilWaiting(agent, refundRequest(orderId), memory);
      calls.push({ runId, toolCallId });
    }
    const [more] = await refunds(1);
    const result = await bulk({ action: "approve", calls: [...calls, more] });
    expect((result as { data: BulkOutcome }).data.counts).toEqual({ applied: 3, already_decided: 0, refused: 0, failed: 0 });
    expect(await effectsOf([...calls, more!])).toHaveLength(3);
    // The thread's second run was recorded only once the first was carried out.
    const db = await getDb(database.url);
    const [first, second] = await Promise.all(
      calls.map((call) => db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call } })),
    );
    expect(second!.decidedAt.getTime()).toBeGreaterThanOrEqual(first!.updatedAt.getTime());
  });

  it.each([
    ["a duplicate call", (calls: Ref[]) => ({ action: "approve", calls: [calls[0], calls[1], calls[0]] }), /calls\[2\] repeats calls\[0\]/],
    ["a reason with approve", (calls: Ref[]) => ({ action: "approve", calls, reason: "why" }), /reason goes with decline only/],
    [
      "resume in bulk",
      (calls: Ref[]) => ({ action: "resume", calls }),
      /action must be "approve" or "decline" \(resume data is never sent in bulk\)/,
    ],
    ["calls that are not a list", () => ({ action: "approve", calls: "all" }), /calls must be a list/],
    ["an oversized reason", (calls: Ref[]) => ({ action: "decline", calls, reason: "x".repeat(2_001) }), /reason is longer than 2000/],
    ["an extra field", (calls: Ref[]) => ({ action: "approve", calls, confirmMayHaveRun: true }), /Unrecognized key/],
  ])("refuses %s as a whole and changes nothing", async (_name, body, message) => {
    const calls = await refunds(2);
    const before = await storeState();
    const result = await bulk(body(calls));
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_input", message: expect.stringMatching(message) } });
    expect(await storeState()).toEqual(before);
  });

  it("refuses a support user's bulk request, changes nothing and audits the refusal once", async () => {
    const calls = await refunds(2);
    const before = await storeState();
    const db = await getDb(database.url);
    const audited = await db.auditEvent.count();
    expect(await bulkAs(support, { action: "approve", calls })).toEqual({
      ok: false,
      error: { code: "forbidden", message: "Your role (support) may not approve, decline or resume tool calls." },
    });
    expect(await storeState()).toEqual(before);
    const rows = await db.auditEvent.findMany({ where: { id: { gt: audited } } });
    expect(rows).toEqual([
      expect.objectContaining({
        reviewer: support.email,
        action: "approve",
        outcome: "refused",
        code: "forbidden",
        batchId: null,
        message: expect.stringMatching(/^Bulk approve of 2 calls refused: Your role \(support\)/),
      }),
    ]);
  });

  it("counts a bulk request once against the refusal budget, and turns an over-budget client away before any work", async () => {
    process.env.REFUSALS_PER_MINUTE = "2";
    const flo = await createTestAccount(database.url, "reviewer", `Flo-${kind}`);
    const unknown = Array.from({ length: 10 }, () => ({ runId: randomUUID(), toolCallId: "call_x" }));
    // Ten refused calls in one request: one refusal of the two a minute.
    const first = await bulkAs(flo, { action: "approve", calls: unknown });
    expect((first as { data: BulkOutcome }).data.counts).toEqual({ applied: 0, already_decided: 0, refused: 10, failed: 0 });
    expect(await bulkAs(flo, { action: "approve", calls: [] })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    // The budget is used up: the next bulk request is turned away before any of its calls is looked at.
    const calls = await refunds(1);
    const before = await storeState();
    expect(await bulkAs(flo, { action: "approve", calls })).toMatchObject({
      ok: false,
      error: { code: "rate_limited", retryAfterSeconds: expect.any(Number) },
    });
    expect(await storeState()).toEqual(before);
  });

  it("answers POST /api/decisions/bulk with per-call results, 400, 403 and 413", async () => {
    const post = (account: TestAccount, body: unknown) =>
      runAs(actorOf(account), () =>
        postBulkRoute(
          new Request("http://console.test/api/decisions/bulk", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        ),
      );
    const [call] = await refunds(1);
    const applied = await post(reviewer, { action: "approve", calls: [call, { runId: "nope", toolCallId: "nope" }] });
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({
      ok: true,
      data: { results: [{ status: "applied" }, { status: "refused", code: "run_not_found" }] },
    });
    const tooMany = await post(reviewer, {
      action: "decline",
      calls: Array.from({ length: 101 }, (_, i) => ({ runId: `r${i}`, toolCallId: "c" })),
    });
    expect(tooMany.status).toBe(413);
    expect(await tooMany.json()).toMatchObject({
      ok: false,
      error: { code: "too_many_calls", message: expect.stringMatching(/^At most 100 calls per request; this one has 101/) },
    });
    expect((await post(reviewer, { action: "approve", calls: [] })).status).toBe(400);
    expect((await post(support, { action: "approve", calls: [call] })).status).toBe(403);
  });
});
