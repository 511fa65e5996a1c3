/**
 * Assignment on SQLite and PostgreSQL with real demo agents and real accounts: taking a call or a
 * thread, who may assign what (checked on the server), the "Assigned to me" listing (a thread's
 * later calls too, a call's own assignee winning over its thread's), the `call.assigned` event, two
 * reviewers taking one call at once, and "only the assignee decides": off, anyone decides and the
 * history says whose call it was; on, everyone else is refused and nothing changes.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { assignThread } from "../../lib/actions/assign-thread.ts";
import { assignToolCall } from "../../lib/actions/assign-tool-call.ts";
import { saveReviewSetting } from "../../lib/actions/save-review-setting.ts";
import { assignCall, pruneCallAssignments } from "../../lib/assignments/assignments.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { getQueuePage, getRunDetail } from "../../lib/queue/views.ts";
import { queueQuery } from "../../lib/search-params.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("assignment on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let rita: TestAccount;
  let sam: TestAccount;
  let ada: TestAccount;
  let support: TestAccount;

  beforeAll(async () => {
    [rita, sam, ada, support] = await Promise.all([
      createTestAccount(database.url, "reviewer", `Rita-${kind}`),
      createTestAccount(database.url, "reviewer", `Sam-${kind}`),
      createTestAccount(database.url, "admin", `Ada-${kind}`),
      createTestAccount(database.url, "support", `Sol-${kind}`),
    ]);
  });

  /** A refund waiting on `thread` (a fresh Mastra per run: one holds a stream per busy thread). */
  async function suspendRefund(thread: string, order: string) {
    const mastra = await createConsoleMastra(database.url);
    const call = await runUntilWaiting(mastra.getAgent("refunds"), refundRequest(order), { thread, resource: `cust_${order}` });
    return { runId: call.runId, toolCallId: call.toolCallId, thread };
  }

  const as = <T>(account: TestAccount, work: () => Promise<T>) => runAs(actorOf(account), work);
  const assignedTo = async (account: TestAccount, extra: Record<string, string> = {}) => {
    const page = await getQueuePage(queueQuery.parse({ assigned: "me", perPage: "100", ...extra }), account.id);
    return page.threads.flatMap((thread) => thread.runs.map((run) => run.runId)).sort();
  };

  it("lets a reviewer take a call, lists it as hers alone, and announces it", async () => {
    const call = await suspendRefund(`ticket-${randomUUID()}`, "ORD-A1");
    const taken = await as(rita, () => assignToolCall({ runId: call.runId, toolCallId: call.toolCallId, assigneeId: rita.id }));
    expect(taken).toMatchObject({ ok: true, data: { assignee: { id: rita.id, email: rita.email }, calls: 1 } });

    expect(await assignedTo(rita)).toEqual([call.runId]);
    expect(await assignedTo(sam)).toEqual([]);
    const detail = await getRunDetail(call.runId, database.url);
    expect(detail?.toolCalls[0]?.assignee).toMatchObject({ id: rita.id, email: rita.email, via: "call", assignedBy: rita.email });

    const db = await getDb(database.url);
    const events = await db.outboxEvent.findMany({ where: { type: "call.assigned" } });
    const announced = events.map((event) => JSON.parse(event.payload).data).filter((data) => data.runId === call.runId);
    expect(announced).toEqual([
      expect.objectContaining({
        toolCallId: call.toolCallId,
        toolName: "issueRefund",
        agentId: "refunds",
        assigneeEmail: rita.email,
        assignedBy: rita.email,
      }),
    ]);
  });

  it("checks on the server who may assign what", async () => {
    const call = await suspendRefund(`ticket-${randomUUID()}`, "ORD-A2");
    const target = { runId: call.runId, toolCallId: call.toolCallId };
    // Support reads but does not decide, so cannot take calls.
    expect(await as(support, () => assignToolCall({ ...target, assigneeId: support.id }))).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    // A reviewer takes for herself only.
    expect(await as(sam, () => assignToolCall({ ...target, assigneeId: rita.id }))).toMatchObject({
      ok: false,
      error: { code: "forbidden", message: expect.stringContaining("Only an admin") },
    });
    // Bad input changes nothing.
    for (const bad of [
      { ...target, assigneeId: "" },
      { ...target },
      { ...target, assigneeId: sam.id, extra: 1 },
      { runId: "x\u0000", toolCallId: "y", assigneeId: null },
    ]) {
      expect(await as(sam, () => assignToolCall(bad))).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    }
    expect(await as(sam, () => assignToolCall({ runId: "no-such-run", toolCallId: "x", assigneeId: sam.id }))).toMatchObject({
      ok: false,
      error: { code: "run_not_found" },
    });
    const db = await getDb(database.url);
    expect(await db.callAssignment.count({ where: { runId: call.runId } })).toBe(0);

    expect(await as(sam, () => assignToolCall({ ...target, assigneeId: sam.id }))).toMatchObject({ ok: true });
    // Rita cannot take Sam's call, nor unassign it.
    for (const assigneeId of [rita.id, null]) {
      expect(await as(rita, () => assignToolCall({ ...target, assigneeId }))).toMatchObject({
        ok: false,
        error: { code: "forbidden", message: expect.stringContaining(sam.email) },
      });
    }
    // An admin can give it to anyone who decides, but not to support.
    expect(await as(ada, () => assignToolCall({ ...target, assigneeId: support.id }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("may not decide") },
    });
    expect(await as(ada, () => assignToolCall({ ...target, assigneeId: rita.id }))).toMatchObject({ ok: true });
    expect(await assignedTo(rita)).toContain(call.runId);
    expect(await assignedTo(sam)).not.toContain(call.runId);
    // The holder gives it back.
    expect(await as(rita, () => assignToolCall({ ...target, assigneeId: null }))).toMatchObject({ ok: true, data: { assignee: null } });
    expect(await assignedTo(rita)).not.toContain(call.runId);
  });

  it("assigns a thread's calls, later ones too, unless a call has its own assignee", async () => {
    const thread = `ticket-${randomUUID()}`;
    const first = await suspendRefund(thread, "ORD-T1");
    const second = await suspendRefund(thread, "ORD-T2");
    const taken = await as(rita, () => assignThread({ threadId: thread, assigneeId: rita.id }));
    expect(taken).toMatchObject({ ok: true, data: { calls: 2 } });
    expect(await assignedTo(rita, { threadId: thread })).toEqual([first.runId, second.runId].sort());

    const later = await suspendRefund(thread, "ORD-T3");
    expect(await assignedTo(rita, { threadId: thread })).toEqual([first.runId, second.runId, later.runId].sort());

    // An admin gives one call of the thread to Sam: it leaves Rita's list and joins his.
    expect(await as(ada, () => assignToolCall({ runId: later.runId, toolCallId: later.toolCallId, assigneeId: sam.id }))).toMatchObject({
      ok: true,
    });
    expect(await assignedTo(rita, { threadId: thread })).toEqual([first.runId, second.runId].sort());
    expect(await assignedTo(sam, { threadId: thread })).toEqual([later.runId]);

    // The queue shows the thread's holder on its row, and each call's own.
    const page = await getQueuePage(queueQuery.parse({ threadId: thread }), sam.id);
    expect(page.threads[0]?.assignee).toMatchObject({ id: rita.id });
    const callAssignees = page.threads[0]?.runs.map((run) => [
      run.runId,
      run.toolCalls[0]?.assignee?.email,
      run.toolCalls[0]?.assignee?.via,
    ]);
    expect(callAssignees).toEqual(
      expect.arrayContaining([
        [first.runId, rita.email, "thread"],
        [later.runId, sam.email, "call"],
      ]),
    );
    // A call held with its thread is given back with the thread, not on its own.
    expect(await as(rita, () => assignToolCall({ runId: first.runId, toolCallId: first.toolCallId, assigneeId: null }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("unassign the thread") },
    });
    // Sam cannot take Rita's thread; unassigning it leaves Sam's own call his.
    expect(await as(sam, () => assignThread({ threadId: thread, assigneeId: sam.id }))).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(await as(rita, () => assignThread({ threadId: thread, assigneeId: null }))).toMatchObject({ ok: true });
    expect(await assignedTo(rita, { threadId: thread })).toEqual([]);
    expect(await assignedTo(sam, { threadId: thread })).toEqual([later.runId]);
    expect(await as(rita, () => assignThread({ threadId: `ticket-${randomUUID()}`, assigneeId: rita.id }))).toMatchObject({
      ok: false,
      error: { code: "run_not_found" },
    });
  });

  it("gives one of two reviewers taking the same call at once the call, and tells the other who has it", async () => {
    const call = await suspendRefund(`ticket-${randomUUID()}`, "ORD-R1");
    const target = { runId: call.runId, toolCallId: call.toolCallId };
    const results = await Promise.all([
      as(rita, () => assignToolCall({ ...target, assigneeId: rita.id })),
      as(sam, () => assignToolCall({ ...target, assigneeId: sam.id })),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const lost = results.find((result) => !result.ok);
    expect(lost).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^(assignment_conflict|forbidden)$/) } });
    const db = await getDb(database.url);
    const rows = await db.callAssignment.findMany({ where: { runId: call.runId } });
    expect(rows).toHaveLength(1);
    const winner = results[0]!.ok ? rita : sam;
    expect(rows[0]?.assigneeId).toBe(winner.id);
    const announced = (await db.outboxEvent.findMany({ where: { type: "call.assigned" } })).filter(
      (event) => JSON.parse(event.payload).data.runId === call.runId,
    );
    expect(announced).toHaveLength(1);
  });

  it("lets others decide an assigned call and records that it was not theirs", async () => {
    const call = await suspendRefund(`ticket-${randomUUID()}`, "ORD-D1");
    await assignCall({ ...call, assigneeId: rita.id }, actorOf(rita), database.url);
    const outcome = await decide(
      { action: "approve", runId: call.runId, toolCallId: call.toolCallId },
      { reviewer: sam.email, databaseUrl: database.url },
    );
    expect(outcome.action).toBe("approve");
    const db = await getDb(database.url);
    const recorded = await db.auditEvent.findFirst({ where: { runId: call.runId, outcome: "recorded" } });
    expect(recorded).toMatchObject({ reviewer: sam.email, assignee: rita.email });
    expect(await db.toolEffect.count({ where: { toolCallId: call.toolCallId } })).toBe(1);
    // The call no longer waits: the maintenance loop drops its assignment.
    expect(await pruneCallAssignments(database.url)).toBeGreaterThanOrEqual(1);
    expect(await db.callAssignment.count({ where: { runId: call.runId } })).toBe(0);
  });

  it("with only the assignee deciding, refuses everyone else and changes nothing", async () => {
    expect(await as(rita, () => saveReviewSetting({ agentId: "refunds", onlyAssigneeDecides: true }))).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(await as(ada, () => saveReviewSetting({ agentId: "refunds", onlyAssigneeDecides: "yes" }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(await as(ada, () => saveReviewSetting({ agentId: "no-such-agent", onlyAssigneeDecides: true }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(await as(ada, () => saveReviewSetting({ agentId: "refunds", onlyAssigneeDecides: true }))).toMatchObject({ ok: true });
    try {
      const call = await suspendRefund(`ticket-${randomUUID()}`, "ORD-E1");
      const ref = { runId: call.runId, toolCallId: call.toolCallId };
      await assignCall({ ...ref, assigneeId: rita.id }, actorOf(ada), database.url);
      const detail = await getRunDetail(call.runId, database.url);
      expect(detail?.toolCalls[0]?.assignee).toMatchObject({ id: rita.id, exclusive: true });

      for (const reviewer of [sam.email, ada.email]) {
        await expect(decide({ action: "approve", ...ref }, { reviewer, databaseUrl: database.url })).rejects.toMatchObject({
          code: "not_assignee",
          message: expect.stringContaining(rita.email),
        });
      }
      const db = await getDb(database.url);
      expect(await db.toolCallDecision.count({ where: { runId: call.runId } })).toBe(0);
      expect(await db.toolEffect.count({ where: { toolCallId: call.toolCallId } })).toBe(0);
      const refusals = await db.auditEvent.findMany({ where: { runId: call.runId, outcome: "refused" } });
      expect(refusals.map((event) => event.code)).toEqual(["not_assignee", "not_assignee"]);

      await decide({ action: "approve", ...ref }, { reviewer: rita.email, databaseUrl: database.url });
      expect(await db.toolEffect.count({ where: { toolCallId: call.toolCallId } })).toBe(1);

      // Unassigned calls of the agent stay open to everyone.
      const open = await suspendRefund(`ticket-${randomUUID()}`, "ORD-E2");
      await decide(
        { action: "decline", runId: open.runId, toolCallId: open.toolCallId, reason: "no" },
        { reviewer: sam.email, databaseUrl: database.url },
      );
    } finally {
      await as(ada, () => saveReviewSetting({ agentId: "refunds", onlyAssigneeDecides: false }));
    }
  });
});
