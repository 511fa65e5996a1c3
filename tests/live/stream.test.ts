/**
 * GET /api/events/stream against real console servers: on PostgreSQL a decision made on instance A
 * reaches a stream held on instance B; on both databases a change written by another process (as a
 * team's own Mastra server does) reaches the stream, a stream resuming with Last-Event-ID is replayed
 * what it missed, a position the feed no longer has gets `reset`, heartbeats flow, open streams hold
 * no place in the admission line, and anonymous or malformed requests are refused.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { pruneFeed } from "../../lib/live/feed.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { changesIn, openStream } from "../helpers/live-stream.ts";

describe.each(["sqlite", "postgres"] as const)("the live stream on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let servers: ConsoleServer[] = [];
  let reviewer: TestAccount;
  let cookie: string;
  const env = { LIVE_HEARTBEAT_MS: "1000", LIVE_POLL_MS: "100", MAX_CONCURRENT_REQUESTS: "2", LIVE_STREAMS_PER_USER: "5" };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    servers = await Promise.all((kind === "postgres" ? [1, 2] : [1]).map(() => startConsoleServer(database.url, env)));
    reviewer = await createTestAccount(database.url, "reviewer");
    cookie = await sessionCookie(database.url, reviewer);
  }, 150_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await disconnectDb(database.url);
    await database.drop();
  });

  it("tells a stream (on the other instance, on PostgreSQL) that a call started waiting and was decided", async () => {
    const [first, last] = [servers[0]!, servers.at(-1)!];
    const stream = await openStream(last, cookie);
    expect(stream.status).toBe(200);
    await stream.waitFor((event) => event.event === "ready");
    // This test process is not a console server: the run reaches the stream through the database.
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4601"));
    await stream.waitFor(
      (event) => event.event === "change" && JSON.parse(event.data).kind === "waiting" && JSON.parse(event.data).runId === run.runId,
    );
    const decided = await postDecision(first, cookie, { action: "approve", ...run.ref });
    expect(decided.status).toBe(200);
    // The run leaves and the decision is marked applied in two transactions, either first.
    for (const kind of ["left", "decision.applied"]) {
      await stream.waitFor(
        (event) => event.event === "change" && JSON.parse(event.data).kind === kind && JSON.parse(event.data).runId === run.runId,
      );
    }
    const kinds = changesIn(stream)
      .filter((change) => change.runId === run.runId)
      .map((change) => change.kind);
    expect(kinds).toEqual(expect.arrayContaining(["waiting", "decision.recorded", "left", "decision.applied"]));
    stream.close();
  });

  it("replays what a stream missed when it comes back with Last-Event-ID, and says reset when the feed no longer has it", async () => {
    const server = servers.at(-1)!;
    const first = await openStream(server, cookie);
    const ready = await first.waitFor((event) => event.event === "ready");
    first.close();
    const db = await getDb(database.url);
    const admin = await createTestAccount(database.url, "admin");
    for (const threadId of ["t-missed-1", "t-missed-2"]) {
      await db.threadAssignment.create({ data: { threadId, assigneeId: admin.id, assignedBy: admin.id, assignedAt: new Date() } });
    }
    const resumed = await openStream(server, cookie, { "last-event-id": ready.id! });
    await resumed.waitFor((event) => event.event === "ready");
    const missed = changesIn(resumed).filter((change) => change.threadId?.startsWith("t-missed-"));
    expect(missed.map((change) => change.threadId)).toEqual(["t-missed-1", "t-missed-2"]);
    expect(changesIn(resumed).every((change) => change.position > Number(ready.id) - 100)).toBe(true);
    resumed.close();

    // Pruned past it: one reset, then carry on from the head.
    await db.threadAssignment.create({
      data: { threadId: "t-missed-3", assigneeId: admin.id, assignedBy: admin.id, assignedAt: new Date() },
    });
    await pruneFeed(db, { keepMinutes: 60, keepRows: 1 });
    const late = await openStream(server, cookie, {}, `?lastEventId=${ready.id}`);
    await late.waitFor((event) => event.event === "ready");
    // A change the hub was still handing out (t-missed-3) may follow `ready`: the reader refetches anyway.
    expect(late.events.slice(0, 2).map((event) => event.event)).toEqual(["reset", "ready"]);
    expect(late.events.filter((event) => event.event === "reset")).toHaveLength(1);
    late.close();
  });

  it("sends heartbeats, and open streams leave the admission line free", async () => {
    const server = servers[0]!;
    const streams = await Promise.all([1, 2, 3, 4].map(() => openStream(server, cookie)));
    await Promise.all(streams.map((stream) => stream.waitFor((event) => event.event === "ready")));
    await expect.poll(() => streams[0]!.comments, { timeout: 10_000 }).toBeGreaterThan(0);
    // Four open streams, two places: a read still gets in.
    const queue = await fetch(`${server.url}/api/queue`, { headers: { cookie } });
    expect(queue.status).toBe(200);
    for (const stream of streams) stream.close();
  });

  it("answers a queue read that changed nothing with 304, and a read after a change in full", async () => {
    const server = servers.at(-1)!;
    const read = (headers: Record<string, string> = {}, query = "") =>
      fetch(`${server.url}/api/queue${query}`, { headers: { cookie, ...headers } });
    // The tag changes with the minute too: read the pair again if one turned in between.
    let etag = "";
    let unchanged: Response | undefined;
    for (let attempt = 0; attempt < 2 && unchanged?.status !== 304; attempt++) {
      const full = await read();
      expect(full.status).toBe(200);
      etag = full.headers.get("etag")!;
      unchanged = await read({ "if-none-match": etag });
    }
    expect(etag).toMatch(/^W\/"[0-9]+\.[A-Za-z0-9_-]+"$/);
    expect(unchanged!.status).toBe(304);
    expect(await unchanged!.text()).toBe("");
    expect((await read({ "if-none-match": `"other", ${etag}` })).status).toBe(304);
    // Another query, another reader's tag, or no cookie: never a 304 for it.
    expect((await read({ "if-none-match": etag }, "?sort=newest")).status).toBe(200);
    expect((await fetch(`${server.url}/api/queue`, { headers: { "if-none-match": etag } })).status).toBe(401);
    const db = await getDb(database.url);
    const admin = await createTestAccount(database.url, "admin");
    await db.threadAssignment.create({ data: { threadId: "t-etag", assigneeId: admin.id, assignedBy: admin.id, assignedAt: new Date() } });
    const changed = await read({ "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect((await changed.json()).ok).toBe(true);

    // Filtered to one customer: another customer's call starting to wait is no change of that page,
    // while the same read without the filter is answered in full.
    const filtered = (resourceId: string, tag?: string) => read(tag ? { "if-none-match": tag } : {}, `?resourceId=${resourceId}`);
    let quiet: Response | undefined;
    for (let attempt = 0; attempt < 2 && quiet?.status !== 304; attempt++) {
      const [quietTag, wholeTag] = [(await filtered("cust_etag_quiet")).headers.get("etag")!, (await read()).headers.get("etag")!];
      await suspendDemoRun(database.url, "refunds", refundRequest(`ORD-ETAG-${attempt}`));
      quiet = await filtered("cust_etag_quiet", quietTag);
      expect((await read({ "if-none-match": wholeTag })).status).toBe(200);
    }
    expect(quiet!.status).toBe(304);
  });

  it("refuses one stream too many of a user, in words, and takes one again once a stream closed", async () => {
    const server = servers[0]!;
    const [busy, other] = await Promise.all([createTestAccount(database.url, "reviewer"), createTestAccount(database.url, "support")]);
    const busyCookie = await sessionCookie(database.url, busy);
    const streams = await Promise.all([1, 2, 3, 4, 5].map(() => openStream(server, busyCookie)));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = await fetch(`${server.url}/api/events/stream`, { headers: { cookie: busyCookie } });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatchObject({ code: "rate_limited", message: expect.stringContaining("LIVE_STREAMS_PER_USER") });
    // Someone else is not held back by it.
    const theirs = await openStream(server, await sessionCookie(database.url, other));
    expect(theirs.status).toBe(200);
    theirs.close();
    streams[0]!.close();
    await expect
      .poll(
        async () => {
          const again = await openStream(server, busyCookie);
          again.close();
          return again.status;
        },
        { timeout: 10_000 },
      )
      .toBe(200);
    for (const stream of streams) stream.close();
  });

  it("cuts a client that stops reading once its unread events pass the bound", async () => {
    const server = servers[0]!;
    const { port } = new URL(server.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(`GET /api/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nAccept: text/event-stream\r\n\r\n`);
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    await expect.poll(() => received.includes("event: ready"), { timeout: 10_000 }).toBe(true);
    socket.pause();
    // About 12 MB of events, far more than the kernel's buffers and the 1 MiB bound.
    const db = await getDb(database.url);
    const admin = await createTestAccount(database.url, "admin");
    const rows = Array.from({ length: 40_000 }, (_, i) => ({
      threadId: `t-flood-${i}-${"x".repeat(100)}`,
      assigneeId: admin.id,
      assignedBy: admin.id,
      assignedAt: new Date(),
    }));
    for (let i = 0; i < rows.length; i += 5_000) await db.threadAssignment.createMany({ data: rows.slice(i, i + 5_000) });
    const ended = new Promise<boolean>((resolve) => {
      socket.once("end", () => resolve(true));
      socket.once("close", () => resolve(true));
      setTimeout(() => resolve(false), 30_000);
    });
    // Let the server fill what it will, then read: a cut stream ends short of all the events.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    socket.resume();
    expect(await ended).toBe(true);
    expect((received.match(/event: change/g) ?? []).length).toBeLessThan(40_000);
    socket.destroy();
  });

  it("refuses anonymous readers and malformed positions, in words", async () => {
    const server = servers[0]!;
    const anonymous = await fetch(`${server.url}/api/events/stream`);
    expect(anonymous.status).toBe(401);
    for (const bad of ["abc", "1e3", "-1", "1".repeat(16), "1\u0000"]) {
      const response = await fetch(`${server.url}/api/events/stream?lastEventId=${encodeURIComponent(bad)}`, { headers: { cookie } });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error.code).toBe("invalid_input");
    }
    const header = await fetch(`${server.url}/api/events/stream`, { headers: { cookie, "last-event-id": "x" } });
    expect(header.status).toBe(400);
    expect((await header.json()).error.message).toMatch(/lastEventId/);
    const unknown = await fetch(`${server.url}/api/events/stream?since=1`, { headers: { cookie } });
    expect(unknown.status).toBe(400);
  });
});
