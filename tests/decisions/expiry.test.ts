/**
 * Expiry rules on SQLite and PostgreSQL, with real demo agents: a call that waits past its rule is
 * declined through the agent (its tool never runs), recorded as "expired" (never as a reviewer's
 * decline), a tool's own rule wins over its agent's, input requests and agents without a rule never
 * expire, and a reviewer racing the expiry gets one outcome. The clock is advanced by passing `now`.
 */
import { describe, expect, it } from "vitest";
import { listHistory } from "../../lib/audit/history.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { EXPIRY_REVIEWER, expireOverdueCalls } from "../../lib/decisions/expire.ts";
import { auditQuery } from "../../lib/search-params.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { minutesFromNow, replaceExpiryRules, type ExpiryRuleRow } from "../helpers/expiry-rules.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("expiry on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  const setRules = (rules: ExpiryRuleRow[]) => replaceExpiryRules(database.url, rules);

  async function stateOf(runId: string, toolCallId: string) {
    const db = await getDb(database.url);
    return {
      decision: await db.toolCallDecision.findUnique({ where: { runId_toolCallId: { runId, toolCallId } } }),
      effects: await db.toolEffect.count({ where: { toolCallId } }),
      snapshots: await db.workflowSnapshot.count({ where: { runId } }),
      audit: (await db.auditEvent.findMany({ where: { runId }, orderBy: { id: "asc" } })).map((event) => ({
        outcome: event.outcome,
        reviewer: event.reviewer,
        action: event.action,
      })),
    };
  }

  it("declines an approval that waited past its agent's rule through the agent, recorded as expired", async () => {
    await setRules([{ agentId: "refunds", afterMinutes: 30 }]);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-6001"));
    expect(await expireOverdueCalls(database.url, minutesFromNow(29))).toBe(0);
    expect(await expireOverdueCalls(database.url, minutesFromNow(31))).toBe(1);

    const state = await stateOf(run.runId, run.ref.toolCallId);
    expect(state.decision).toMatchObject({
      action: "expire",
      state: "applied",
      reviewer: EXPIRY_REVIEWER,
      reason: "expired: no reviewer within 30 min",
    });
    expect(state.effects).toBe(0); // declined: the refund was never issued
    expect(state.snapshots).toBe(0); // the agent finished the run
    expect(state.audit).toEqual([
      { outcome: "recorded", reviewer: EXPIRY_REVIEWER, action: "expire" },
      { outcome: "expired", reviewer: EXPIRY_REVIEWER, action: "expire" },
    ]);
    const db = await getDb(database.url);
    const events = await db.outboxEvent.findMany({ where: { type: { in: ["call.decided", "call.expired"] } } });
    const announced = events.filter((event) => event.payload.includes(run.ref.toolCallId));
    expect(announced.map((event) => [event.type, (JSON.parse(event.payload) as { data: { mode?: string } }).data.mode])).toEqual([
      ["call.expired", "decline"],
    ]);
    const { entries } = await listHistory(auditQuery.parse({ resourceId: run.resource }), database.url);
    expect(entries.map((entry) => [entry.head.action, entry.timeline.map((event) => event.outcome)])).toEqual([
      ["expire", ["recorded", "expired"]],
    ]);

    // Too late for a reviewer, who is told it expired, not that somebody declined it.
    await expect(
      decide({ action: "approve", ...run.ref }, { reviewer: "late@test.example", databaseUrl: database.url }),
    ).rejects.toMatchObject({
      code: "already_decided",
      message: expect.stringMatching(/^This tool call expired at .* \(expired: no reviewer within 30 min\)/),
    });
    expect(await expireOverdueCalls(database.url, minutesFromNow(60))).toBe(0);
  });

  it("lets a tool's own rule win over its agent's, and never expires input requests or agents without a rule", async () => {
    await setRules([
      { agentId: "refunds", afterMinutes: 30 },
      { agentId: "refunds", toolName: "issueRefund", afterMinutes: 120 },
      { agentId: "shipping", afterMinutes: 1 },
    ]);
    const refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-6002"));
    const addressRequest = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-6003")); // waits for data
    const outreach = await suspendDemoRun(database.url, "outreach", requests.email().text);

    expect(await expireOverdueCalls(database.url, minutesFromNow(31))).toBe(0);
    expect(await expireOverdueCalls(database.url, minutesFromNow(121))).toBe(1);
    expect((await stateOf(refund.runId, refund.ref.toolCallId)).decision?.action).toBe("expire");
    for (const untouched of [addressRequest, outreach]) {
      expect(await stateOf(untouched.runId, untouched.ref.toolCallId)).toMatchObject({ decision: null, snapshots: expect.any(Number) });
      expect((await stateOf(untouched.runId, untouched.ref.toolCallId)).snapshots).toBeGreaterThan(0);
    }
  });

  it("gives one outcome when a reviewer approves at the moment the call expires", async () => {
    await setRules([{ agentId: "refunds", afterMinutes: 1 }]);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-6004"));
    const [approval, expiry] = await Promise.allSettled([
      decide({ action: "approve", ...run.ref }, { reviewer: "rita@test.example", databaseUrl: database.url }),
      expireOverdueCalls(database.url, minutesFromNow(2)),
    ]);
    const state = await stateOf(run.runId, run.ref.toolCallId);
    if (state.decision?.action === "approve") {
      expect(approval.status).toBe("fulfilled");
      expect(expiry).toEqual({ status: "fulfilled", value: 0 });
      expect(state.effects).toBe(1);
    } else {
      expect(state.decision).toMatchObject({ action: "expire", state: "applied" });
      expect(expiry).toEqual({ status: "fulfilled", value: 1 });
      expect(approval).toMatchObject({
        status: "rejected",
        reason: { code: "already_decided", message: expect.stringMatching(/expired at/) },
      });
      expect(state.effects).toBe(0);
    }
    expect(state.snapshots).toBe(0);
  });
});
