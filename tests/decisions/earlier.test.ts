/**
 * "Earlier decisions" beside a waiting call, on SQLite and PostgreSQL, from decisions made through
 * the console's own decide(): the same customer's calls of the same tool in the last 30 days are
 * counted (approved, declined, expired) with the latest listed, while other customers, other tools
 * and older decisions are left out; the same thread's decided calls are listed.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decide } from "../../lib/decisions/decide.ts";
import { earlierDecisions } from "../../lib/decisions/earlier.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest } from "../helpers/demo-runs.ts";

const DAY = 24 * 60 * 60 * 1000;

describe.each(["sqlite", "postgres"] as const)("earlier decisions on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  /** One run waiting, each on a Mastra instance of its own (Mastra holds a second stream on a busy thread). */
  async function waiting(agent: "refunds" | "outreach", text: string, memory: { thread: string; resource: string }) {
    const mastra = await createConsoleMastra(database.url);
    const { runId, toolCallId } = await runUntilWaiting(mastra.getAgent(agent), text, memory);
    return { runId, toolCallId };
  }
  const by = (reviewer: string) => ({ reviewer, databaseUrl: database.url });

  it("counts this customer's calls of this tool in the last 30 days, and lists the thread's", async () => {
    const customer = `cust_${randomUUID()}`;
    const other = `cust_${randomUUID()}`;
    const thread = `ticket-${randomUUID()}`;
    const elsewhere = () => ({ thread: `ticket-${randomUUID()}`, resource: customer });

    const first = await waiting("refunds", refundRequest("ORD-8101"), { thread, resource: customer });
    await decide({ action: "approve", ...first }, by("rita@test.example"));
    const second = await waiting("refunds", refundRequest("ORD-8102"), elsewhere());
    await decide({ action: "decline", ...second, reason: "duplicate" }, by("otto@test.example"));
    const third = await waiting("refunds", refundRequest("ORD-8103"), elsewhere());
    await decide({ action: "approve", ...third }, by("otto@test.example"));
    const expired = await waiting("refunds", refundRequest("ORD-8104"), elsewhere());
    await decide(
      { action: "expire", ...expired, mode: "mark", reason: "expired: no reviewer within 1 h" },
      { ...by("the expiry rule"), asAssignee: false },
    );
    // Around them: another tool of the same customer, the same tool of another customer.
    const email = await waiting("outreach", requests.email({ to: "a@b.example" }).text, elsewhere());
    await decide({ action: "approve", ...email }, by("rita@test.example"));
    const theirs = await waiting("refunds", refundRequest("ORD-8105"), { thread: `ticket-${randomUUID()}`, resource: other });
    await decide({ action: "approve", ...theirs }, by("rita@test.example"));

    const now = await waiting("refunds", refundRequest("ORD-8106"), { thread, resource: customer });
    const listed = (await findSuspendedRun(now.runId, database.url))!;
    const call = {
      ...now,
      toolName: listed.toolCalls[0]!.toolName ?? null,
      resourceId: listed.resourceId ?? null,
      threadId: listed.threadId ?? null,
    };
    expect(call).toMatchObject({ toolName: "issueRefund", resourceId: customer, threadId: thread });

    const earlier = await earlierDecisions(call, { databaseUrl: database.url });
    expect(earlier.counts).toEqual({ approved: 2, declined: 1, resumed: 0, expired: 1, outside: 0 });
    expect(earlier.recent.map((decision) => [decision.runId, decision.action, decision.reviewer])).toEqual([
      [expired.runId, "expire", "the expiry rule"],
      [third.runId, "approve", "otto@test.example"],
      [second.runId, "decline", "otto@test.example"],
      [first.runId, "approve", "rita@test.example"],
    ]);
    expect(earlier.thread.map((decision) => [decision.runId, decision.toolName, decision.action])).toEqual([
      [first.runId, "issueRefund", "approve"],
    ]);

    // A month later the same decisions are older than the window: not counted, the thread's still listed.
    const later = await earlierDecisions(call, { databaseUrl: database.url, now: new Date(Date.now() + 31 * DAY) });
    expect(later.counts).toEqual({ approved: 0, declined: 0, resumed: 0, expired: 0, outside: 0 });
    expect(later.recent).toEqual([]);
    expect(later.thread).toHaveLength(1);
  });

  it("has nothing to compare a run without a customer with", async () => {
    const mastra = await createConsoleMastra(database.url);
    const { runId, toolCallId } = await runUntilWaiting(mastra.getAgent("refunds"), refundRequest("ORD-8107"), undefined);
    const earlier = await earlierDecisions(
      { runId, toolCallId, toolName: "issueRefund", resourceId: null, threadId: null },
      { databaseUrl: database.url },
    );
    expect(earlier).toMatchObject({ counts: { approved: 0, declined: 0 }, recent: [], thread: [] });
  });
});
