/**
 * Risk in the review queue, on SQLite and PostgreSQL, with the real demo agents and rules: each call
 * takes the risk of the rule that matched it when it started waiting; the queue filters by risk
 * (exact totals), orders highest risk first, and marks a call overdue against its own risk's target
 * (a call no rule rated: REVIEW_SLA_MINUTES). A bad risk parameter is refused by the API and dropped,
 * with a note, by the page.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getQueueRoute } from "../../app/api/queue/route.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { announceOverdueCalls, forgetOverdueWatermarks } from "../../lib/announcements/overdue.ts";
import { overdueCutoff, riskCutoffs as reviewCutoffs } from "../../lib/queue/review-target.ts";
import { getQueuePage, getRunsView } from "../../lib/queue/views.ts";
import { prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { createRule } from "../../lib/rules/store.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { listThreads } from "../../lib/runs/list-threads.ts";
import { queueQuery, sanitizeQueueQuery } from "../../lib/search-params.ts";
import { actorOf, createTestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

const MINUTE = 60_000;

describe.each(["sqlite", "postgres"] as const)("risk in the queue on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const runs: Record<string, DemoRun> = {};

  /** Each order's rule risk (none for ORD-5) and how long its call has waited, in minutes. */
  const plan = {
    critical: { order: "ORD-9001", age: 20 }, // over critical's 15: overdue
    highRecent: { order: "ORD-8001", age: 30 }, // under high's 60
    highOld: { order: "ORD-8002", age: 90 }, // over high's 60: overdue
    low: { order: "ORD-1001", age: 120 }, // under low's 1440, though over REVIEW_SLA_MINUTES
    unrated: { order: "ORD-5001", age: 100 }, // no rule: over REVIEW_SLA_MINUTES' 60, overdue
  } as const;

  beforeAll(async () => {
    const db = await getDb(database.url);
    const rule = (name: string, pattern: string, risk: string) =>
      createRule(
        db,
        ruleInputSchema.parse({
          name,
          enabled: true,
          agentId: "refunds",
          conditions: [{ path: "orderId", op: "matches", value: pattern }],
          effect: "ask",
          risk,
        }),
        "admin@test.example",
      );
    await rule("payouts", "^ORD-9", "critical");
    await rule("big orders", "^ORD-8", "high");
    await rule("small orders", "^ORD-1", "low");
    for (const [key, { order }] of Object.entries(plan)) runs[key] = await suspendDemoRun(database.url, "refunds", refundRequest(order));
    await recordWaitingCalls(database.url, prepareRuleMatches);
    // Waiting times as planned: the store's updated_at is when a call started waiting.
    const now = Date.now();
    for (const [key, { age }] of Object.entries(plan)) {
      await db.workflowSnapshot.updateMany({ where: { runId: runs[key]!.runId }, data: { updatedAt: new Date(now - age * MINUTE) } });
    }
    // A stale match: a call of the unrated run that no longer waits, rated critical. It must count for nothing.
    await db.callRuleMatch.create({
      data: { runId: runs.unrated!.runId, toolCallId: "call_decided_long_ago", risk: "critical", matchedAt: new Date(now - 300 * MINUTE) },
    });
  }, 180_000);

  const page = (params: Record<string, string> = {}) => getQueuePage(queueQuery.parse(params));
  const threadOf = (key: keyof typeof plan) => runs[key]!.thread;

  it("gives each call the risk of the rule that matched it, and none when no rule did", async () => {
    const db = await getDb(database.url);
    const match = await db.callRuleMatch.findUnique({
      where: { runId_toolCallId: { runId: runs.critical!.runId, toolCallId: runs.critical!.ref.toolCallId } },
    });
    expect(match).toMatchObject({ effect: "ask", risk: "critical" });
    const listed = await page({ perPage: "10" });
    const riskOf = Object.fromEntries(listed.threads.map((thread) => [thread.threadKey, thread.runs[0]!.toolCalls[0]!.risk ?? null]));
    expect(riskOf).toEqual({
      [threadOf("critical")]: "critical",
      [threadOf("highRecent")]: "high",
      [threadOf("highOld")]: "high",
      [threadOf("low")]: "low",
      [threadOf("unrated")]: null,
    });
    expect(listed.riskTargets).toEqual({ critical: 15, high: 60, medium: 240, low: 1440 });
  });

  it("filters by risk with exact totals, one risk or several", async () => {
    const high = await page({ risk: "high" });
    expect({ threads: high.threadTotal, calls: high.callTotal }).toEqual({ threads: 2, calls: 2 });
    expect(high.threads.map((thread) => thread.threadKey)).toEqual([threadOf("highOld"), threadOf("highRecent")]);
    const several = await page({ risk: "critical,low" });
    expect({ threads: several.threadTotal, calls: several.callTotal }).toEqual({ threads: 2, calls: 2 });
    expect(new Set(several.threads.map((thread) => thread.threadKey))).toEqual(new Set([threadOf("critical"), threadOf("low")]));
    // The stale critical match of the unrated run is not one of its waiting calls.
    expect((await page({ risk: "critical" })).threads.map((thread) => thread.threadKey)).toEqual([threadOf("critical")]);
    expect(await page({ risk: "medium" })).toMatchObject({ threadTotal: 0, callTotal: 0, threads: [] });
    const overdueHigh = await page({ risk: "high", overdue: "1" });
    expect(overdueHigh.threads.map((thread) => [thread.threadKey, thread.overdueCalls])).toEqual([[threadOf("highOld"), 1]]);
    // One risk reads the per-thread risk summaries; with a risk no call has added, the same page is
    // grouped from the matching runs: both say the same, calls not overdue yet included.
    const grouped = await page({ risk: "high,medium" });
    expect(high.threads).toEqual(grouped.threads);
    expect(high.threads.map((thread) => [thread.threadKey, thread.calls, thread.overdueCalls])).toEqual([
      [threadOf("highOld"), 1, 1],
      [threadOf("highRecent"), 1, 0],
    ]);
    expect((await page({ risk: "high", sort: "newest" })).threads.map((thread) => thread.threadKey)).toEqual([
      threadOf("highRecent"),
      threadOf("highOld"),
    ]);
  });

  it("orders highest risk first, then longest waiting", async () => {
    const listed = await page({ sort: "risk" });
    expect(listed.sort).toBe("risk");
    expect(listed.threads.map((thread) => thread.threadKey)).toEqual([
      threadOf("critical"),
      threadOf("highOld"),
      threadOf("highRecent"),
      threadOf("low"),
      threadOf("unrated"),
    ]);
    // Read a page at a time, pages of one to three threads cut across the risks (the summaries read
    // them a risk at a time): the pages put together are the same order, with the same totals.
    const now = new Date();
    for (const perPage of [1, 2, 3]) {
      const pages = [];
      for (let at = 0; at < 3 + 5 / perPage; at++) {
        pages.push(
          await listThreads(
            {
              sort: "risk",
              perPage,
              page: at,
              overdueBefore: overdueCutoff(now),
              riskCutoffs: reviewCutoffs(now, listed.riskTargets),
            },
            database.url,
          ),
        );
      }
      expect(pages.flatMap((read) => read.threads.map((thread) => thread.threadKey))).toEqual(
        listed.threads.map((thread) => thread.threadKey),
      );
      expect(pages.map((read) => read.threadTotal)).toEqual(pages.map(() => 5));
    }
    // Grouped from the matches (a filter the summaries do not cover) the order is the same.
    const filtered = await page({ sort: "risk", risk: "low,high,critical" });
    expect(filtered.threads.map((thread) => thread.threadKey)).toEqual([
      threadOf("critical"),
      threadOf("highOld"),
      threadOf("highRecent"),
      threadOf("low"),
    ]);
  });

  it("marks each call overdue against its own risk's target, on every way of reading the page", async () => {
    const expected = { critical: 1, highRecent: 0, highOld: 1, low: 0, unrated: 1 };
    const overdueByThread = (threads: Array<{ threadKey: string; overdueCalls: number }>) =>
      Object.fromEntries(threads.map((thread) => [thread.threadKey, thread.overdueCalls]));
    const want = Object.fromEntries(Object.entries(expected).map(([key, count]) => [threadOf(key as keyof typeof plan), count]));
    // From the per-thread summaries (no filter), and from grouped matches (a risk filter, highest first).
    expect(overdueByThread((await page()).threads)).toEqual(want);
    expect(overdueByThread((await page({ sort: "risk" })).threads)).toEqual(want);
    expect(overdueByThread((await page({ risk: "low,medium,high,critical" })).threads)).toEqual(
      Object.fromEntries(Object.entries(want).filter(([thread]) => thread !== threadOf("unrated"))),
    );
    // The overdue filter: both ways, exact totals.
    const overdue = await page({ overdue: "1" });
    const wantOverdue = [threadOf("unrated"), threadOf("highOld"), threadOf("critical")];
    expect(overdue.threads.map((thread) => thread.threadKey)).toEqual(wantOverdue);
    expect({ threads: overdue.threadTotal, calls: overdue.callTotal }).toEqual({ threads: 3, calls: 3 });
    const overdueByRisk = await page({ overdue: "1", sort: "risk" });
    expect(overdueByRisk.threads.map((thread) => thread.threadKey)).toEqual([
      threadOf("critical"),
      threadOf("highOld"),
      threadOf("unrated"),
    ]);
    expect({ threads: overdueByRisk.threadTotal, calls: overdueByRisk.callTotal }).toEqual({ threads: 3, calls: 3 });
    // Without risk targets (as before risks): one target for all, the low call is overdue and the critical one not.
    const now = new Date();
    const single = await listThreads({ overdueBefore: new Date(now.getTime() - 60 * MINUTE), onlyOverdue: true }, database.url);
    expect(new Set(single.threads.map((thread) => thread.threadKey))).toEqual(
      new Set([threadOf("highOld"), threadOf("unrated"), threadOf("low")]),
    );
  });

  it("refuses an unknown risk on the API, and drops it with a note on the page", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    const read = async (params: Record<string, string>) =>
      (await (
        await runAs(actorOf(reviewer), () => getQueueRoute(new Request(`http://console.test/api/queue?${new URLSearchParams(params)}`)))
      ).json()) as Record<string, unknown>;
    expect(await read({ risk: "high" })).toMatchObject({ ok: true, data: { threadTotal: 2, callTotal: 2 } });
    for (const risk of ["severe", "high,", "HIGH", "high,severe"]) {
      expect(await read({ risk })).toMatchObject({
        ok: false,
        error: { code: "invalid_input", message: expect.stringMatching(/risk must be one or more of low, medium, high, critical/) },
      });
    }
    const view = await getRunsView(sanitizeQueueQuery({ risk: "severe" }));
    expect(view.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/^risk=severe was ignored: risk must be one or more of/),
    ]);
    expect(view.threadTotal).toBe(5);
  });

  it("announces call.overdue against each call's own risk target, once, and again only for the calls that crossed theirs", async () => {
    const db = await getDb(database.url);
    const targets = { unrated: 60, byRisk: { critical: 15, high: 60, medium: 240, low: 1440 } };
    const now = new Date();
    forgetOverdueWatermarks();
    expect(await announceOverdueCalls(database.url, now, targets)).toBe(3);
    const announced = async () => {
      const events = await db.outboxEvent.findMany({ where: { type: "call.overdue" } });
      return Object.fromEntries(
        events
          .map((event) => JSON.parse(event.payload) as { data: { runId: string; risk: string | null; reviewTargetMinutes: number } })
          .map(({ data }) => [Object.keys(plan).find((key) => runs[key]!.runId === data.runId), [data.risk, data.reviewTargetMinutes]]),
      );
    };
    expect(await announced()).toEqual({ critical: ["critical", 15], highOld: ["high", 60], unrated: [null, 60] });
    // A restart announces nothing again; a day later the low call has crossed its 1440 minutes too.
    forgetOverdueWatermarks();
    expect(await announceOverdueCalls(database.url, now, targets)).toBe(0);
    forgetOverdueWatermarks();
    // 1,000 minutes on: the high call waited 1,030 (over 60), the low one 1,120 (under 1,440).
    expect(await announceOverdueCalls(database.url, new Date(now.getTime() + 1_000 * MINUTE), targets)).toBe(1);
    expect(await announced()).toMatchObject({ highRecent: ["high", 60] });
    expect(Object.keys(await announced())).not.toContain("low");
    forgetOverdueWatermarks();
    expect(await announceOverdueCalls(database.url, new Date(now.getTime() + 1_330 * MINUTE), targets)).toBe(1);
    expect(await announced()).toMatchObject({ highRecent: ["high", 60], low: ["low", 1440] });
  });
});
