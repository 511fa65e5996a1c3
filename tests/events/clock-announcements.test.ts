/**
 * The announcements made on the clock, on SQLite and PostgreSQL, with real demo agents: `call.overdue`
 * once a call waits past the review target, `call.expiring` once its rule's warning time has come.
 * Each is announced once per call: across rounds, across two console instances racing, across a
 * restart; never for a call somebody is deciding. The clock is advanced by passing `now`.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { announceExpiringCalls } from "../../lib/announcements/expiring.ts";
import { announceOverdueCalls, forgetOverdueWatermarks } from "../../lib/announcements/overdue.ts";
import { pruneAnnouncements } from "../../lib/announcements/record.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

const TARGET = 60;
/** One review target for every call, as the tests of the clock read it: no call here has a risk. */
const TARGETS = { unrated: TARGET, byRisk: { critical: TARGET, high: TARGET, medium: TARGET, low: TARGET } };
const minutesAfter = (since: Date, minutes: number) => new Date(since.getTime() + minutes * 60_000);

describe.each(["sqlite", "postgres"] as const)("announcements on the clock on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  async function eventsOf(runId: string, type: string) {
    const db = await getDb(database.url);
    const events = await db.outboxEvent.findMany({ where: { type }, orderBy: { createdAt: "asc" } });
    return events
      .map((event) => JSON.parse(event.payload) as { type: string; data: Record<string, unknown> })
      .filter((e) => e.data.runId === runId);
  }

  /** When the run started waiting, as the store recorded it. */
  async function waitingSince(run: DemoRun): Promise<Date> {
    const db = await getDb(database.url);
    const row = await db.workflowSnapshot.findFirstOrThrow({ where: { runId: run.runId, agentId: { not: null } } });
    return row.updatedAt;
  }

  it("announces call.overdue once for a call past the review target, not for a fresh one, not again after a restart", async () => {
    const old = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9001"));
    const fresh = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9002"));
    const since = await waitingSince(old);
    // The moment the old call crossed the target and the fresh one (seconds younger) did not yet.
    const between = new Date((since.getTime() + (await waitingSince(fresh)).getTime()) / 2);
    const now = minutesAfter(between, TARGET);
    expect(await announceOverdueCalls(database.url, minutesAfter(since, TARGET - 1), TARGETS)).toBe(0);

    expect(await announceOverdueCalls(database.url, now, TARGETS)).toBe(1);
    expect(await announceOverdueCalls(database.url, now, TARGETS)).toBe(0);
    forgetOverdueWatermarks(); // a restart: the watermark comes back from the announcements
    expect(await announceOverdueCalls(database.url, now, TARGETS)).toBe(0);
    expect(await eventsOf(fresh.runId, "call.overdue")).toEqual([]);

    const [overdue, ...more] = await eventsOf(old.runId, "call.overdue");
    expect(more).toEqual([]);
    expect(overdue!.data).toMatchObject({
      runId: old.runId,
      toolCallId: old.ref.toolCallId,
      toolName: "issueRefund",
      agentId: "refunds",
      threadId: old.thread,
      resourceId: old.resource,
      workflowName: "agentic-loop",
      waitingSince: since.toISOString(),
      overdueSince: minutesAfter(since, TARGET).toISOString(),
      reviewTargetMinutes: TARGET,
    });
  });

  it("announces a call once when two console instances look at the same moment", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9003"));
    const late = minutesAfter(await waitingSince(run), TARGET + 5);
    forgetOverdueWatermarks();
    await Promise.all([announceOverdueCalls(database.url, late, TARGETS), announceOverdueCalls(database.url, late, TARGETS)]);
    expect(await eventsOf(run.runId, "call.overdue")).toHaveLength(1);
    const db = await getDb(database.url);
    expect(await db.callAnnouncement.count({ where: { runId: run.runId, type: "call.overdue" } })).toBe(1);
  });

  it("does not announce a call somebody is deciding", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9004"));
    const db = await getDb(database.url);
    const now = new Date();
    await db.toolCallDecision.create({
      data: {
        id: randomUUID(),
        ...run.ref,
        action: "approve",
        state: "applying",
        reviewer: "rita@test.example",
        agentId: "refunds",
        leaseUntil: minutesAfter(now, 1),
        decidedAt: now,
        updatedAt: now,
      },
    });
    await announceOverdueCalls(database.url, minutesAfter(await waitingSince(run), TARGET + 1), TARGETS);
    expect(await eventsOf(run.runId, "call.overdue")).toEqual([]);
  });

  it("announces call.expiring once, warnMinutes before the call expires, not before", async () => {
    const db = await getDb(database.url);
    await db.expiryRule.deleteMany();
    await db.expiryRule.create({
      data: { agentId: "refunds", toolName: "", afterMinutes: 30, warnMinutes: 10, updatedBy: "admin@test.example", updatedAt: new Date() },
    });
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9005"));
    const since = await waitingSince(run);
    // (The earlier tests' refunds runs wait under the same rule: each test looks at its own run's events.)
    await announceExpiringCalls(database.url, minutesAfter(since, 19));
    expect(await eventsOf(run.runId, "call.expiring")).toEqual([]);
    const warnedAt = minutesAfter(since, 20);
    await Promise.all([announceExpiringCalls(database.url, warnedAt), announceExpiringCalls(database.url, warnedAt)]);
    await announceExpiringCalls(database.url, minutesAfter(since, 25));

    const events = await eventsOf(run.runId, "call.expiring");
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      toolCallId: run.ref.toolCallId,
      toolName: "issueRefund",
      waitingSince: since.toISOString(),
      expiresAt: minutesAfter(since, 30).toISOString(),
      mode: "decline",
    });
    // A rule without a warning time warns nobody.
    await db.expiryRule.updateMany({ data: { warnMinutes: null } });
    const quiet = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-9006"));
    await announceExpiringCalls(database.url, minutesAfter(await waitingSince(quiet), 29));
    expect(await eventsOf(quiet.runId, "call.expiring")).toEqual([]);
    await db.expiryRule.deleteMany();
  });

  it("prunes the announcements of runs that no longer wait, and keeps the others", async () => {
    const db = await getDb(database.url);
    const gone = `run-gone-${randomUUID()}`;
    await db.callAnnouncement.create({
      data: { runId: gone, toolCallId: "call_1", type: "call.overdue", waitingSince: new Date(), announcedAt: new Date() },
    });
    const before = await db.callAnnouncement.count();
    expect(await pruneAnnouncements(db)).toBe(1);
    expect(await db.callAnnouncement.count()).toBe(before - 1);
  });
});
