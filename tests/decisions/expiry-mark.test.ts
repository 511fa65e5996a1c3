/**
 * Expiry rules in mark mode on SQLite and PostgreSQL, with real demo agents: at expiry the console
 * records the expiry through the first-wins record without telling the agent (no tool effect, the
 * run stays suspended in the store), a late reviewer is told it expired, the history says
 * "expired" with the mode, `call.expired` carries `mode: "mark"`, the queue shows the call expired
 * and not decidable, and a reviewer racing the expiry gets one outcome. The clock is advanced by
 * passing `now`.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listHistory } from "../../lib/audit/history.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { EXPIRY_REVIEWER, expireOverdueCalls } from "../../lib/decisions/expire.ts";
import { findCallDecisionStates } from "../../lib/decisions/call-states.ts";
import { recoverDecisions } from "../../lib/decisions/recover.ts";
import { getRunsView } from "../../lib/queue/views.ts";
import { auditQuery, sanitizeQueueQuery } from "../../lib/search-params.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { minutesFromNow, replaceExpiryRules, type ExpiryRuleRow } from "../helpers/expiry-rules.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("expiry in mark mode on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  const setRules = (rules: ExpiryRuleRow[]) => replaceExpiryRules(database.url, rules);

  async function stateOf(runId: string, toolCallId: string) {
    const db = await getDb(database.url);
    return {
      decision: await db.toolCallDecision.findUnique({ where: { runId_toolCallId: { runId, toolCallId } } }),
      effects: await db.toolEffect.count({ where: { toolCallId } }),
      suspended: await db.workflowSnapshot.count({ where: { runId, status: "suspended", agentId: { not: null } } }),
      events: (await db.outboxEvent.findMany({ where: { type: { in: ["call.decided", "call.expired"] } }, orderBy: { createdAt: "asc" } }))
        .map((event) => JSON.parse(event.payload) as { type: string; data: Record<string, unknown> })
        .filter((event) => event.data.toolCallId === toolCallId),
    };
  }

  it("marks the call expired without telling the agent; a later approval is refused as expired", async () => {
    await setRules([{ agentId: "refunds", afterMinutes: 30, mode: "mark" }]);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7001"));
    expect(await expireOverdueCalls(database.url, minutesFromNow(29))).toBe(0);
    expect(await expireOverdueCalls(database.url, minutesFromNow(31))).toBe(1);

    const state = await stateOf(run.runId, run.ref.toolCallId);
    expect(state.decision).toMatchObject({
      action: "expire",
      expiryMode: "mark",
      state: "applied",
      reviewer: EXPIRY_REVIEWER,
      reason: "expired: no reviewer within 30 min",
    });
    expect(state.effects).toBe(0); // the refund was never issued
    expect(state.suspended).toBe(1); // the agent was not told: its run still waits in the store
    expect(state.events.map((event) => [event.type, event.data.mode, event.data.state, event.data.answer])).toEqual([
      ["call.expired", "mark", "applied", null], // no agent answered
    ]);

    // The queue lists it (its run still waits) as expired, and nobody can decide it any more.
    const states = await findCallDecisionStates([run.runId], database.url);
    expect(states.get(run.runId)?.get(run.ref.toolCallId)).toEqual({
      markedExpired: { expiredAt: state.decision!.decidedAt.toISOString(), reason: "expired: no reviewer within 30 min" },
    });
    await expect(
      decide({ action: "approve", ...run.ref }, { reviewer: "late@test.example", databaseUrl: database.url }),
    ).rejects.toMatchObject({
      code: "already_decided",
      message: expect.stringMatching(/^This tool call expired at .* \(expired: no reviewer within 30 min\): it was marked expired/),
    });
    expect((await stateOf(run.runId, run.ref.toolCallId)).effects).toBe(0);

    // The history: its own outcome, with the mode in its message (and so in the CSV), never a decline.
    const { entries } = await listHistory(auditQuery.parse({ resourceId: run.resource }), database.url);
    const expiry = entries.find((entry) => entry.head.action === "expire")!;
    expect(expiry.timeline.map((event) => event.outcome)).toEqual(["recorded", "expired"]);
    expect(expiry.timeline[1]!.message).toMatch(/expiry mode: mark/);
    expect(entries.some((entry) => entry.head.action === "decline")).toBe(false);

    // Marked calls stay suspended, yet later rounds neither expire them again nor stop at them.
    expect(await expireOverdueCalls(database.url, minutesFromNow(60))).toBe(0);
    const next = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7002"));
    expect(await expireOverdueCalls(database.url, minutesFromNow(61))).toBe(1);
    expect((await stateOf(next.runId, next.ref.toolCallId)).decision).toMatchObject({ action: "expire", expiryMode: "mark" });
  });

  it("the queue says when a call will expire, and lists a marked one as expired, not decidable", async () => {
    await setRules([{ agentId: "refunds", afterMinutes: 30, mode: "mark" }]);
    const waiting = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7005"));
    const runOf = async (resourceId: string) => (await getRunsView(sanitizeQueueQuery({ resourceId }))).threads[0]!.runs[0]!;
    const listed = await runOf(waiting.resource);
    const before = listed.toolCalls[0]!;
    expect(before.expiresAt).toBe(new Date(Date.parse(listed.suspendedAt) + 30 * 60_000).toISOString());
    expect(before.markedExpired).toBeUndefined();

    await expireOverdueCalls(database.url, minutesFromNow(31));
    const after = (await runOf(waiting.resource)).toolCalls[0]!;
    expect(after.markedExpired).toMatchObject({ reason: "expired: no reviewer within 30 min" });
    expect(after.expiresAt).toBeUndefined();
  });

  it("recovery finishes a mark-mode expiry whose server stopped after recording it, without calling the agent", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7006"));
    const db = await getDb(database.url);
    const past = new Date(Date.now() - 60_000);
    await db.toolCallDecision.create({
      data: {
        id: randomUUID(),
        ...run.ref,
        action: "expire",
        expiryMode: "mark",
        state: "recorded",
        reviewer: EXPIRY_REVIEWER,
        agentId: "refunds",
        reason: "expired: no reviewer within 30 min",
        leaseUntil: past,
        decidedAt: past,
        updatedAt: past,
      },
    });
    expect(await recoverDecisions(database.url)).toMatchObject({ carriedOut: 1 });
    const state = await stateOf(run.runId, run.ref.toolCallId);
    expect(state.decision).toMatchObject({ action: "expire", expiryMode: "mark", state: "applied" });
    expect(state.effects).toBe(0);
    expect(state.suspended).toBe(1);
    expect(state.events.map((event) => [event.type, event.data.mode])).toEqual([["call.expired", "mark"]]);
  });

  it("marks an input request expired too (declining one through Mastra is impossible)", async () => {
    await setRules([{ agentId: "shipping", afterMinutes: 5, mode: "mark" }]);
    const run = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-7003"));
    expect(await expireOverdueCalls(database.url, minutesFromNow(6))).toBe(1);
    const state = await stateOf(run.runId, run.ref.toolCallId);
    expect(state.decision).toMatchObject({ action: "expire", expiryMode: "mark", state: "applied" });
    expect(state.suspended).toBe(1);
    await expect(
      decide(
        { action: "resume", ...run.ref, resumeData: { addressId: "addr_home" } },
        { reviewer: "late@test.example", databaseUrl: database.url },
      ),
    ).rejects.toMatchObject({ code: "already_decided", message: expect.stringMatching(/expired at/) });
  });

  it("gives one outcome when a reviewer approves at the moment the call is marked expired", async () => {
    await setRules([{ agentId: "refunds", afterMinutes: 1, mode: "mark" }]);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7004"));
    const [approval, expiry] = await Promise.allSettled([
      decide({ action: "approve", ...run.ref }, { reviewer: "rita@test.example", databaseUrl: database.url }),
      expireOverdueCalls(database.url, minutesFromNow(2)),
    ]);
    const state = await stateOf(run.runId, run.ref.toolCallId);
    if (state.decision?.action === "approve") {
      expect(approval.status).toBe("fulfilled");
      expect(expiry).toEqual({ status: "fulfilled", value: 0 });
      expect(state.effects).toBe(1);
      expect(state.events.map((event) => event.type)).toEqual(["call.decided"]);
    } else {
      expect(state.decision).toMatchObject({ action: "expire", expiryMode: "mark", state: "applied" });
      expect(expiry).toEqual({ status: "fulfilled", value: 1 });
      expect(approval).toMatchObject({
        status: "rejected",
        reason: { code: "already_decided", message: expect.stringMatching(/expired at/) },
      });
      expect(state.effects).toBe(0);
      expect(state.suspended).toBe(1);
      expect(state.events.map((event) => event.type)).toEqual(["call.expired"]);
    }
  });
});
