/**
 * The queue's version (lib/live/etag.ts), behind GET /api/queue's ETag and the runs table's
 * "unchanged" answers, against the real change feed: it moves with every change a reader's page
 * could show and with the minute, not with someone opening a call; a reader filtered to a resource,
 * a thread or an agent is left alone by the changes of others; and on PostgreSQL, where feed positions come from a
 * sequence, a change that commits after a later-numbered one still moves it.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { queueVersion, type VersionScope } from "../../lib/live/etag.ts";
import { feedHead } from "../../lib/live/feed.ts";
import { setPresence } from "../../lib/live/presence.ts";
import { actorOf, createTestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

const NOW = Date.parse("2026-12-07T12:00:10Z");

describe.each(["sqlite", "postgres"] as const)("the queue's version on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind);

  const assignThread = async (assigneeId: string, db = getDb(database.url)) =>
    (await db).threadAssignment.create({
      data: { threadId: `t-${randomUUID()}`, assigneeId, assignedBy: assigneeId, assignedAt: new Date() },
    });

  it("moves with a change and the minute, differs per reader and query, and not with someone opening a call", async () => {
    const db = await getDb(database.url);
    const [reviewer, other] = await Promise.all([createTestAccount(database.url, "reviewer"), createTestAccount(database.url, "reviewer")]);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4801"));
    const version = (readerId = reviewer.id, query: unknown = { sort: "oldest" }, now = NOW) => queueVersion(db, readerId, query, { now });

    const first = await version();
    expect(first).toMatch(/^[0-9]+\.[A-Za-z0-9_-]{22}$/);
    expect(await version()).toBe(first);
    expect(await version(other.id)).not.toBe(first);
    expect(await version(reviewer.id, { sort: "newest" })).not.toBe(first);
    expect(await version(reviewer.id, { sort: "oldest" }, NOW + 60_000)).not.toBe(first);

    const head = await feedHead(db);
    await setPresence(db, actorOf(other), { stream: "version-test", calls: [run.ref] });
    await setPresence(db, actorOf(other), { stream: "version-test", calls: [] });
    expect(await feedHead(db)).toBeGreaterThan(head);
    expect(await version()).toBe(first);

    await assignThread(other.id);
    const moved = await version();
    expect(moved).not.toBe(first);
    expect(Number(moved.split(".")[0])).toBeGreaterThan(Number(first.split(".")[0]));
  });

  it("filtered to one resource, moves with that resource's changes and a thread assigned, not with another resource's", async () => {
    const db = await getDb(database.url);
    const [reviewer, other] = await Promise.all([createTestAccount(database.url, "reviewer"), createTestAccount(database.url, "reviewer")]);
    const mine = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4811"));
    const version = (resourceId?: string) => queueVersion(db, reviewer.id, { resourceId }, { scope: { resourceId }, now: NOW });

    const first = await version(mine.resource);
    const unfiltered = await version();
    // Another customer's call starts waiting and is approved: the whole queue changed, this customer's did not.
    const theirs = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4812"));
    await db.callApproval.create({
      data: { runId: theirs.runId, toolCallId: theirs.ref.toolCallId, reviewerId: other.id, reviewerName: "Other", approvedAt: new Date() },
    });
    expect(await version()).not.toBe(unfiltered);
    expect(await version(mine.resource)).toBe(first);
    // Opening this customer's call is no change of the page either.
    await setPresence(db, actorOf(other), { stream: "version-test-2", calls: [mine.ref] });
    expect(await version(mine.resource)).toBe(first);

    // A change to this customer's call moves it, and so does a thread assigned (those changes name no run or resource).
    await db.callAssignment.create({
      data: { runId: mine.runId, toolCallId: mine.ref.toolCallId, assigneeId: other.id, assignedBy: other.id, assignedAt: new Date() },
    });
    const assigned = await version(mine.resource);
    expect(assigned).not.toBe(first);
    expect(Number(assigned.split(".")[0])).toBeGreaterThan(Number(first.split(".")[0]));
    await assignThread(other.id);
    expect(await version(mine.resource)).not.toBe(assigned);

    // A resource nobody has: no change in scope but the thread assigned.
    expect(await version(`cust-${randomUUID()}`)).toMatch(/^[0-9]+\.[A-Za-z0-9_-]{22}$/);
  });

  it("filtered to a thread or an agent, moves with that thread's or agent's changes; the thread, the narrower, wins", async () => {
    const db = await getDb(database.url);
    const [reviewer, other] = await Promise.all([createTestAccount(database.url, "reviewer"), createTestAccount(database.url, "reviewer")]);
    const refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4821"));
    const shipping = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-4822"));
    const version = (scope: VersionScope) => queueVersion(db, reviewer.id, scope, { scope, now: NOW });
    const approve = (run: typeof refund) =>
      db.callApproval.create({
        data: { runId: run.runId, toolCallId: run.ref.toolCallId, reviewerId: other.id, reviewerName: "Other", approvedAt: new Date() },
      });

    const thread = await version({ threadId: refund.thread });
    const refunds = await version({ agentId: "refunds" });
    // The thread wins over the agent: a change of another refund run moves the agent's version only.
    const threadAndAgent = await version({ threadId: refund.thread, agentId: "refunds" });
    const another = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4823"));
    expect(await version({ agentId: "refunds" })).not.toBe(refunds);
    expect(await version({ threadId: refund.thread, agentId: "refunds" })).toBe(threadAndAgent);
    expect(await version({ threadId: refund.thread })).toBe(thread);

    // Another agent's change: neither moves.
    const refundsNow = await version({ agentId: "refunds" });
    await approve(shipping);
    expect(await version({ agentId: "refunds" })).toBe(refundsNow);
    expect(await version({ threadId: refund.thread })).toBe(thread);

    // A change on the thread's own call moves both.
    await approve(refund);
    expect(await version({ threadId: refund.thread })).not.toBe(thread);
    expect(await version({ agentId: "refunds" })).not.toBe(refundsNow);
    expect(another.thread).not.toBe(refund.thread);
  });

  it.runIf(kind === "postgres")("moves when a change numbered below the newest commits after the newest was read", async () => {
    const db = await getDb(database.url);
    const reviewer = await createTestAccount(database.url, "reviewer");
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    // The first transaction takes its feed position, then waits; the second, numbered after it, commits first.
    const slow = db.$transaction(
      async (tx) => {
        await tx.threadAssignment.create({
          data: { threadId: `t-slow-${randomUUID()}`, assigneeId: reviewer.id, assignedBy: reviewer.id, assignedAt: new Date() },
        });
        inserted();
        await held;
      },
      { timeout: 60_000 },
    );
    await insertedYet;
    await assignThread(reviewer.id);
    const before = await queueVersion(db, reviewer.id, {}, { now: NOW });
    commit();
    await slow;
    const after = await queueVersion(db, reviewer.id, {}, { now: NOW });
    // Same newest position, yet a change the reader has not seen: another version.
    expect(after.split(".")[0]).toBe(before.split(".")[0]);
    expect(after).not.toBe(before);
  });
});
