/**
 * The live streams' limits at their defaults, as the issue states them: one user's 1,001st stream on
 * an instance is refused (429 rate_limited, naming LIVE_STREAMS_PER_USER) while their 1,000 stay
 * open, and refusing more costs the instance nothing (a hundred more refused, the same 1,000 held);
 * the instance's own limit (LIVE_STREAMS_PER_INSTANCE) refuses anyone's next one with 503
 * server_busy. Streams are held as raw sockets, so the test process holds 1,000 of them cheaply.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

const PER_USER = 1_000;

/** Opens a stream on a socket of its own; resolves with its status and the socket, left open. */
function openRaw(server: ConsoleServer, cookie: string): Promise<{ status: number; head: string; socket: Socket }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    socket.once("error", reject);
    socket.on("data", (chunk) => {
      received += chunk;
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.removeAllListeners("data");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
      resolve({ status, head: received, socket });
    });
    socket.write(`GET /api/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

describe.each(["sqlite", "postgres"] as const)("live stream limits at their defaults on %s", { timeout: 300_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // The per-user limit at its default; the instance's set just above it, to reach it too.
    server = await startConsoleServer(database.url, { LIVE_STREAMS_PER_INSTANCE: String(PER_USER + 2) });
  }, 150_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("refuses a user's 1,001st stream with 429 rate_limited, and the instance's next one with 503 server_busy", async () => {
    const [heavy, other] = await Promise.all([createTestAccount(database.url, "reviewer"), createTestAccount(database.url, "support")]);
    const heavyCookie = await sessionCookie(database.url, heavy);
    // In batches: the admission line answers a burst beyond its queue with 503, as it should.
    for (let opened = 0; opened < PER_USER; opened += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => openRaw(server, heavyCookie)));
      sockets.push(...batch.map(({ socket }) => socket));
      expect(batch.map(({ status }) => status)).toEqual(Array(50).fill(200));
    }

    const refused = await fetch(`${server.url}/api/events/stream`, { headers: { cookie: heavyCookie } });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expect(body.error.message).toContain("LIVE_STREAMS_PER_USER");
    expect(body.error.message).toContain(String(PER_USER));
    // A hundred more attempts are each refused at once and hold nothing: the instance's count is unchanged.
    const more = await Promise.all(Array.from({ length: 100 }, () => openRaw(server, heavyCookie)));
    expect(new Set(more.map(({ status }) => status))).toEqual(new Set([429]));
    for (const { socket } of more) socket.destroy();

    // The instance holds 1,000 of 1,002: someone else gets two, then the instance is full for everyone.
    const otherCookie = await sessionCookie(database.url, other);
    const theirs = await Promise.all([openRaw(server, otherCookie), openRaw(server, otherCookie)]);
    sockets.push(...theirs.map(({ socket }) => socket));
    expect(theirs.map(({ status }) => status)).toEqual([200, 200]);
    const full = await fetch(`${server.url}/api/events/stream`, { headers: { cookie: otherCookie } });
    expect(full.status).toBe(503);
    expect(((await full.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "server_busy",
      message: expect.stringContaining("LIVE_STREAMS_PER_INSTANCE"),
    });

    // A closed stream gives its place back.
    sockets.pop()!.destroy();
    await expect
      .poll(
        async () => {
          const again = await openRaw(server, otherCookie);
          sockets.push(again.socket);
          return again.status;
        },
        { timeout: 10_000 },
      )
      .toBe(200);
  });
});
