/**
 * The live queue's change feed (queue_changes), written by triggers on both databases: a real demo
 * agent's call starting to wait, being assigned, decided and leaving the queue each leave a row with
 * the ids a reader filters on, at growing positions; pruning keeps it bounded and never loses the
 * head; on PostgreSQL a transaction's changes are announced once, with its id, and read back exactly.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { assignCall, assignThread } from "../../lib/assignments/assignments.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { changesAfter, changesOfTransactions, feedHead, feedTail, pruneFeed } from "../../lib/live/feed.ts";
import { actorOf, createTestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("the change feed on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind);

  it("records a call waiting, assigned, decided and gone, in order, with its agent, thread and resource", async () => {
    const db = await getDb(database.url);
    const before = await feedHead(db);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4501"));
    const reviewer = await createTestAccount(database.url, "reviewer");
    await assignCall({ ...run.ref, assigneeId: reviewer.id }, actorOf(reviewer), database.url);
    await decide({ action: "approve", ...run.ref }, { reviewer: reviewer.name, databaseUrl: database.url });

    const changes = await changesAfter(db, before);
    const positions = changes.map((change) => change.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
    const ofRun = changes.filter((change) => change.runId === run.runId);
    const kinds = ofRun.map((change) => change.kind);
    expect(kinds[0]).toBe("waiting");
    expect(kinds).toContain("assigned");
    expect(kinds).toContain("decision.applied");
    // The snapshot goes as the agent's answer is read, before the decision is marked applied.
    expect(kinds).toContain("left");
    expect(kinds.indexOf("assigned")).toBeLessThan(kinds.indexOf("decision.applied"));
    for (const change of ofRun) {
      expect(change).toMatchObject({ agentId: "refunds", threadId: run.thread, resourceId: run.resource });
    }
    expect(ofRun.find((change) => change.kind === "waiting")?.toolCallId).toBe(run.ref.toolCallId);
    expect(await feedHead(db)).toBe(positions.at(-1));
  });

  it("a thread assigned and unassigned is a change of that thread", async () => {
    const db = await getDb(database.url);
    const before = await feedHead(db);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4502"));
    const admin = await createTestAccount(database.url, "admin");
    await assignThread({ threadId: run.thread, assigneeId: admin.id }, actorOf(admin), database.url);
    await assignThread({ threadId: run.thread, assigneeId: null }, actorOf(admin), database.url);
    const threadChanges = (await changesAfter(db, before)).filter((change) => change.kind === "assigned" && change.runId === null);
    expect(threadChanges.map((change) => change.threadId)).toEqual([run.thread, run.thread]);
  });

  it("a call rated, and rated again by an admin's rule, is a change of that call", async () => {
    const db = await getDb(database.url);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4503"));
    const before = await feedHead(db);
    const key = { runId: run.runId, toolCallId: run.ref.toolCallId };
    await db.callRuleMatch.upsert({
      where: { runId_toolCallId: key },
      create: { ...key, risk: "low", matchedAt: new Date() },
      update: { risk: "low" },
    });
    await db.callRuleMatch.update({ where: { runId_toolCallId: key }, data: { risk: "critical" } });
    await db.callRuleMatch.update({ where: { runId_toolCallId: key }, data: { settledAt: new Date() } });
    const rated = (await changesAfter(db, before)).filter((change) => change.kind === "rated");
    expect(rated).toHaveLength(2);
    expect(rated[0]).toMatchObject({ runId: run.runId, toolCallId: run.ref.toolCallId, resourceId: run.resource });
  });

  it("prunes by count and by age, always keeping the newest, and numbering goes on after it", async () => {
    const db = await getDb(database.url);
    const admin = await createTestAccount(database.url, "admin");
    const assign = (threadId: string) =>
      db.threadAssignment.create({ data: { threadId, assigneeId: admin.id, assignedBy: admin.id, assignedAt: new Date() } });
    for (let i = 0; i < 5; i++) await assign(`t-prune-${i}`);
    const head = await feedHead(db);
    await pruneFeed(db, { keepMinutes: 60, keepRows: 3 });
    expect(await feedTail(db)).toBe(head - 2);
    expect(await feedHead(db)).toBe(head);
    // Everything is older than its minutes an hour from now, but for the head.
    await pruneFeed(db, { keepMinutes: 1, keepRows: 1_000, now: new Date(Date.now() + 3_600_000) });
    expect(await feedTail(db)).toBe(head);
    await assign("t-prune-after");
    expect(await feedHead(db)).toBeGreaterThan(head);
  });

  it.runIf(kind === "postgres")("announces each transaction once, by its id, and those rows are read back exactly", async () => {
    const db = await getDb(database.url);
    const admin = await createTestAccount(database.url, "admin");
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const payloads: string[] = [];
    listener.on("notification", (message) => payloads.push(message.payload ?? ""));
    await listener.query("LISTEN queue_changes");
    try {
      const writer = new pg.Client({ connectionString: database.url });
      await writer.connect();
      await writer.query("BEGIN");
      for (const thread of ["t-tx-1", "t-tx-2", "t-tx-3"]) {
        await writer.query(`INSERT INTO thread_assignments (thread_id, assignee_id, assigned_by, assigned_at) VALUES ($1, $2, $2, now())`, [
          thread,
          admin.id,
        ]);
      }
      const uncommitted = payloads.length;
      await writer.query("COMMIT");
      await writer.end();
      await expect.poll(() => payloads.length, { timeout: 10_000 }).toBe(uncommitted + 1);
      expect(uncommitted).toBe(0);
      expect(payloads[0]).toMatch(/^[0-9]+$/);
      const changes = await changesOfTransactions(db, [BigInt(payloads[0]!)]);
      expect(changes.map((change) => change.threadId)).toEqual(["t-tx-1", "t-tx-2", "t-tx-3"]);
    } finally {
      await listener.end();
    }
  });
});
