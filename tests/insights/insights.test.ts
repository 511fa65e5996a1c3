/**
 * The insights count what happened, on SQLite and PostgreSQL: real refunds-agent calls claimed as
 * the console claims them, decided through decide() by three reviewers (one of whom opened the
 * context first), and the figures of readInsights compared with counts made here, independently,
 * from the audit rows and the `call.waiting` events. Also the viewer's time zone: a decision counts
 * on the local day it was made in, whichever side of midnight that is.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { readInsights } from "../../lib/insights/insights.ts";
import { localDate, zoneOffsetMs } from "../../lib/insights/period.ts";
import { timeZones } from "../../lib/i18n/time-zones.ts";
import { recordCallView, recordReviewTargets } from "../../lib/insights/record.ts";
import { insightsQuery } from "../../lib/insights/validations.ts";
import { bucketOfWait, bucketRange } from "../../lib/insights/wait-scale.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting, type WaitingCall } from "../../lib/mastra/demo/run-until-waiting.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("insights on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const reviewers = ["alice@example.com", "bob@example.com", "carol@example.com"] as const;
  // Who decides what, call by call: alice opens the context before deciding, the others never do.
  const plan: { reviewer: string; action: "approve" | "decline"; context: boolean }[] = [
    { reviewer: reviewers[0], action: "approve", context: true },
    { reviewer: reviewers[0], action: "decline", context: true },
    { reviewer: reviewers[1], action: "approve", context: false },
    { reviewer: reviewers[1], action: "approve", context: false },
    { reviewer: reviewers[2], action: "decline", context: false },
  ];

  it("counts every decision, who made it, how long it waited and whether the context was opened", async () => {
    const db = await getDb(database.url);
    await recordReviewTargets(db, { ...process.env, REVIEW_SLA_MINUTES: "30" });
    const mastra = await createConsoleMastra(database.url);
    const calls: WaitingCall[] = [];
    for (const [index] of plan.entries()) {
      calls.push(
        await runUntilWaiting(mastra.getAgent("refunds"), refundRequest(`ORD-${index}`, "12.00 EUR"), {
          thread: `t-${randomUUID()}`,
          resource: `cust_${index}`,
        }),
      );
    }
    // One more that waits and is not decided: it arrived, nothing else.
    await runUntilWaiting(mastra.getAgent("refunds"), refundRequest("ORD-open", "1.00 EUR"), {
      thread: `t-${randomUUID()}`,
      resource: "cust_open",
    });
    expect(await recordWaitingCalls(database.url)).toBe(plan.length + 1);

    for (const [index, step] of plan.entries()) {
      const { runId, toolCallId } = calls[index]!;
      const call = { runId, toolCallId };
      if (step.context) await recordCallView(db, { ...call, reviewer: step.reviewer, context: true });
      await decide(step.action === "approve" ? { action: "approve", ...call } : { action: "decline", reason: "not this one", ...call }, {
        reviewer: step.reviewer,
        databaseUrl: database.url,
        asAssignee: false,
      });
    }

    // Independently: the audit log's applied rows, and when each call started waiting (its call.waiting event).
    const applied = await db.auditEvent.findMany({ where: { outcome: "applied", runId: { in: calls.map((call) => call.runId) } } });
    expect(applied).toHaveLength(plan.length);
    const waitingSince = new Map(
      (await db.outboxEvent.findMany({ where: { type: "call.waiting" } })).map((event) => {
        const payload = JSON.parse(event.payload) as {
          data?: { toolCallId: string; waitingSince: string };
          toolCallId?: string;
          waitingSince?: string;
        };
        const data = payload.data ?? (payload as { toolCallId: string; waitingSince: string });
        return [data.toolCallId, Date.parse(data.waitingSince)];
      }),
    );
    const decisions = await db.toolCallDecision.findMany({ where: { runId: { in: calls.map((call) => call.runId) } } });
    const waits = decisions.map((decision) => decision.decidedAt.getTime() - waitingSince.get(decision.toolCallId)!).sort((a, b) => a - b);
    expect(waits.every((wait) => Number.isFinite(wait) && wait >= 0)).toBe(true);

    const insights = await readInsights(insightsQuery.parse({ period: "7" }), { timeZone: "UTC", seesNames: true }, { db });
    expect(insights.waited).toBe(plan.length + 1);
    expect(insights.outcomes.decided).toBe(applied.length);
    expect(insights.outcomes.by.person).toBe(applied.length);
    expect(insights.outcomes.approved).toBe(applied.filter((row) => row.action === "approve").length);
    expect(insights.outcomes.declined).toBe(applied.filter((row) => row.action === "decline").length);
    const refunds = insights.byTool.find((row) => row.agentId === "refunds");
    expect(refunds?.decided).toBe(plan.length);
    expect(refunds?.approvalRate).toBeCloseTo(3 / 5);

    for (const reviewer of reviewers) {
      const own = applied.filter((row) => row.reviewer === reviewer);
      const row = insights.reviewers.find((candidate) => candidate.reviewer === reviewer)!;
      expect(row.decisions).toBe(own.length);
      expect(row.approved).toBe(own.filter((event) => event.action === "approve").length);
      expect(row.withoutContext).toBe(plan.filter((step) => step.reviewer === reviewer && !step.context).length);
    }
    // Every wait here is far below 30 minutes: all within target; the median is the bucket holding the independent median.
    expect(insights.timeToDecision.timed).toBe(plan.length);
    expect(insights.timeToDecision.withinTarget).toBe(plan.length);
    const median = waits[Math.ceil(0.5 * waits.length) - 1]!;
    expect(insights.timeToDecision.p50).toEqual(bucketRange(bucketOfWait(median)));
    const today = insights.days.at(-1)!;
    expect(today.date).toBe(localDate(new Date(), "UTC"));
    expect(today.decided).toBe(plan.length);
    expect(today.waited).toBe(plan.length + 1);

    // Support sees the same figures without names.
    const anonymous = await readInsights(insightsQuery.parse({ period: "7" }), { timeZone: "UTC", seesNames: false }, { db });
    expect(anonymous.reviewers.map((row) => row.reviewer)).toEqual([null, null, null]);
    expect(JSON.stringify(anonymous)).not.toContain("@example.com");

    // A resource prefix reads the calls' own rows and agrees with the rollups on what it covers.
    const one = await readInsights(
      insightsQuery.parse({ period: "7", resourcePrefix: "cust_1" }),
      { timeZone: "UTC", seesNames: true },
      { db },
    );
    expect(one.outcomes.decided).toBe(1);
    expect(one.outcomes.declined).toBe(1);
    expect(one.waited).toBe(1);
    // There the rubber-stamp signals are not counted, and the answer says so.
    expect(one.signalsCounted).toBe(false);
    expect(insights.signalsCounted).toBe(true);

    // A prefix every call has: the calls' rows, counted by the database, give what the triggers' rollups give.
    const every = await readInsights(
      insightsQuery.parse({ period: "7", resourcePrefix: "cust_" }),
      { timeZone: "UTC", seesNames: true },
      { db },
    );
    const sorted = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(every.waited).toBe(insights.waited);
    expect(every.outcomes).toEqual(insights.outcomes);
    expect(sorted(every.byTool)).toEqual(sorted(insights.byTool));
    expect(sorted(every.byAgent)).toEqual(sorted(insights.byAgent));
    expect(every.timeToDecision).toEqual(insights.timeToDecision);
    expect(every.days).toEqual(insights.days);
    const withoutSignals = (rows: typeof insights.reviewers) =>
      sorted(rows.map((row) => ({ ...row, quickApprovals: 0, streakApprovals: 0 })));
    expect(withoutSignals(every.reviewers)).toEqual(withoutSignals(insights.reviewers));
  });

  it("counts a decision on the viewer's local day, on either side of midnight", async () => {
    const db = await getDb(database.url);
    const decided = await db.toolCallDecision.findFirstOrThrow({ orderBy: { decidedAt: "desc" } });
    // A zone in which the decision was made between 23:00 and 23:59, and one in which it was after midnight.
    const offsetOf = (zone: string) => zoneOffsetMs(zone, decided.decidedAt);
    const zones = timeZones();
    const lateZone = zones.find((zone) => new Date(decided.decidedAt.getTime() + offsetOf(zone)).getUTCHours() === 23)!;
    const nextZone = zones.find((zone) => new Date(decided.decidedAt.getTime() + offsetOf(zone)).getUTCHours() === 0)!;
    expect(lateZone && nextZone).toBeTruthy();
    const lateDay = localDate(decided.decidedAt, lateZone);
    const nextDay = localDate(decided.decidedAt, nextZone);
    expect(nextDay > lateDay).toBe(true);
    const query = (zoneName: string, day: string) => insightsQuery.parse({ from: day, to: day, timeZone: zoneName });
    const late = await readInsights(
      query(lateZone, lateDay),
      { timeZone: "UTC", seesNames: true },
      { db, now: new Date(decided.decidedAt.getTime() + 60_000) },
    );
    expect(late.days).toHaveLength(1);
    expect(late.days[0]!.decided).toBe(plan.length);
    // The day before, in the same zone, holds none of them.
    const before = new Date(Date.parse(`${lateDay}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const previous = await readInsights(
      query(lateZone, before),
      { timeZone: "UTC", seesNames: true },
      { db, now: new Date(decided.decidedAt.getTime() + 60_000) },
    );
    expect(previous.outcomes.decided).toBe(0);
    // In the zone where it was already past midnight it counts on the next date.
    const next = await readInsights(
      query(nextZone, nextDay),
      { timeZone: "UTC", seesNames: true },
      { db, now: new Date(decided.decidedAt.getTime() + 60_000) },
    );
    expect(next.days.map((day) => [day.date, day.decided])).toEqual([[nextDay, plan.length]]);
  });
});
