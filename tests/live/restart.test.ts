/**
 * A live stream survives its instance's restart: a reader that reconnects as a browser's EventSource
 * does (the same URL, Last-Event-ID) to the restarted instance is sent every change committed while
 * it was away (a call that started waiting, written by another process; on PostgreSQL a decision
 * made on the other instance meanwhile; on SQLite a thread assigned), checked against the feed's rows
 * themselves, with no reset. When the feed no longer has what it missed, it gets exactly one reset
 * (its page reads the list once) and carries on from the head.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { pruneFeed } from "../../lib/live/feed.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { followStream, type StreamEvent } from "../helpers/live-stream.ts";

const env = { LIVE_HEARTBEAT_MS: "1000", LIVE_POLL_MS: "100" };
const changeOf = (event: StreamEvent) => JSON.parse(event.data) as { position: number; kind: string; runId: string | null };

describe.each(["sqlite", "postgres"] as const)("a live stream across a restart on %s", { timeout: 240_000 }, (kind) => {
  let database: TestDatabase;
  /** On PostgreSQL, A stays up while B (the stream's instance) restarts; on SQLite there is only B. */
  let other: ConsoleServer | null = null;
  let restarting: ConsoleServer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [restarting, other] = await Promise.all([
      startConsoleServer(database.url, env),
      kind === "postgres" ? startConsoleServer(database.url, env) : Promise.resolve(null),
    ]);
  }, 150_000);
  afterAll(async () => {
    await Promise.all([restarting, other].map((server) => server?.stop()));
    await disconnectDb(database.url);
    await database.drop();
  });

  async function restart(duringDowntime: () => Promise<void>) {
    const { port } = new URL(restarting.url);
    await restarting.stop();
    await duringDowntime();
    restarting = await startConsoleServer(database.url, env, undefined, Number(port));
  }

  it("delivers every change committed while the instance was down, then one reset once the feed lost them", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    const cookie = await sessionCookie(database.url, reviewer);
    const db = await getDb(database.url);
    const decided = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4701"));
    const reader = followStream(restarting.url, cookie);
    try {
      await reader.waitFor((event) => event.event === "ready");
      const before = Number(reader.lastEventId);

      let arrived = { runId: "" };
      await restart(async () => {
        // Written by this process, as a team's own Mastra server would: the waiting trigger on the store's table.
        arrived = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4702"));
        if (other) expect((await postDecision(other, cookie, { action: "approve", ...decided.ref })).status).toBe(200);
        else
          await db.threadAssignment.create({
            data: { threadId: "t-restart", assigneeId: reviewer.id, assignedBy: reviewer.id, assignedAt: new Date() },
          });
      });
      await reader.waitFor(
        (event) => event.event === "change" && changeOf(event).kind === "waiting" && changeOf(event).runId === arrived.runId,
      );
      if (other) {
        for (const expected of ["left", "decision.applied"]) {
          await reader.waitFor(
            (event) => event.event === "change" && changeOf(event).kind === expected && changeOf(event).runId === decided.runId,
          );
        }
      }
      expect(reader.connections).toBe(2);
      expect(reader.events.filter((event) => event.event === "reset")).toEqual([]);
      // Nothing committed while it was away is missing: every row of the feed after where it was.
      const missed = await db.queueChange.findMany({ where: { position: { gt: BigInt(before) } }, orderBy: { position: "asc" } });
      expect(missed.length).toBeGreaterThanOrEqual(other ? 4 : 2);
      const sent = new Set(reader.events.filter((event) => event.event === "change").map((event) => changeOf(event).position));
      expect(missed.map((row) => Number(row.position)).filter((position) => !sent.has(position))).toEqual([]);

      // Away while the feed was pruned past it: one reset, then the stream goes on from the head.
      await restart(async () => {
        // Two changes, the first pruned: one the reader was never sent is gone.
        for (const order of ["ORD-4703", "ORD-4704"]) await suspendDemoRun(database.url, "refunds", refundRequest(order));
        await pruneFeed(db, { keepMinutes: 60, keepRows: 1 });
      });
      await expect.poll(() => reader.connections, { timeout: 60_000 }).toBe(3);
      const reset = await reader.waitFor((event) => event.event === "reset");
      const third = await reader.waitFor((event) => event.event === "ready" && reader.events.indexOf(event) > reader.events.indexOf(reset));
      expect(reader.events.filter((event) => event.event === "reset")).toHaveLength(1);
      const late = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4705"));
      await reader.waitFor((event) => event.event === "change" && changeOf(event).runId === late.runId);
      expect(Number(third.id)).toBeGreaterThan(before);
    } finally {
      reader.close();
    }
  });
});
