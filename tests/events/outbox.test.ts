/**
 * The events outbox on SQLite and PostgreSQL, with real demo agents: a suspended run's call is
 * recorded by the store's trigger with the snapshot write and announced once as `call.waiting`
 * (however often the console looks, and however many look at once); a console decision announces
 * `call.decided` in the transaction of its state change, naming who decided what and the answer.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("the events outbox on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  async function eventsOf(runId: string) {
    const db = await getDb(database.url);
    const events = await db.outboxEvent.findMany({ orderBy: { createdAt: "asc" } });
    return events
      .map((event) => ({ id: event.id, ...(JSON.parse(event.payload) as { type: string; data: Record<string, unknown> }) }))
      .filter((event) => event.data.runId === runId);
  }

  it("announces a suspended run's call once as call.waiting, from the row the snapshot write left", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8001"));
    const db = await getDb(database.url);
    expect(await db.waitingToolCall.count({ where: { runId: run.runId } })).toBe(1);

    const counts = await Promise.all([recordWaitingCalls(database.url), recordWaitingCalls(database.url)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await recordWaitingCalls(database.url);
    const events = await eventsOf(run.runId);
    expect(events.map((event) => event.type)).toEqual(["call.waiting"]);
    expect(events[0]!.id).toMatch(/^evt_/);
    expect(events[0]!.data).toMatchObject({
      runId: run.runId,
      toolCallId: run.ref.toolCallId,
      toolName: "issueRefund",
      agentId: "refunds",
      threadId: run.thread,
      resourceId: run.resource,
    });
    expect(await db.waitingToolCall.count({ where: { runId: run.runId } })).toBe(0);
  });

  it("announces the decision as call.decided, and the run's next call as call.waiting", async () => {
    const orders = [
      { order: "ORD-8101", amount: "12.00", currency: "EUR" },
      { order: "ORD-8102", amount: "30.00", currency: "EUR" },
    ];
    const run = await suspendDemoRun(database.url, "refunds", requests.severalRefunds({ orders }).text);
    await recordWaitingCalls(database.url);
    await decide({ action: "approve", ...run.ref }, { reviewer: "rita@test.example", databaseUrl: database.url });
    await recordWaitingCalls(database.url);

    const events = await eventsOf(run.runId);
    // The next call is announced when the console next looks, after the decision that led to it.
    expect(events.map((event) => event.type)).toEqual(["call.waiting", "call.decided", "call.waiting"]);
    const decided = events.find((event) => event.type === "call.decided")!;
    expect(decided.data).toMatchObject({
      toolCallId: run.ref.toolCallId,
      reviewer: "rita@test.example",
      action: "approve",
      state: "applied",
      agentId: "refunds",
    });
    expect(typeof decided.data.answer).toBe("string");
    const waiting = events.filter((event) => event.type === "call.waiting").map((event) => event.data.toolCallId);
    expect(waiting).toHaveLength(2);
    expect(waiting[0]).toBe(run.ref.toolCallId);
    expect(waiting[1]).not.toBe(run.ref.toolCallId);
  });
});
