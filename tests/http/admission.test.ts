/**
 * Admission control (lib/http/admission.mjs) on real sockets: a plain HTTP server whose handler
 * holds each request until the test lets it go, so who runs, who waits and who is refused is
 * decided by the line alone; then server.mjs itself, with a line of one, answering a crowd.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAdmission } from "../../lib/http/admission.mjs";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { disconnectDb } from "../../lib/db/client.ts";

interface Held {
  path: string;
  release: () => void;
}

/** How much a stream writes at once in these tests: far more than a connection's kernel buffers take. */
const FLOOD_BYTES = 64 * 1024 * 1024;

async function lineServer(options: { maxConcurrent: number; maxQueued: number; maxWaitMs: number; maxStreamWriteMs?: number }) {
  const started: Held[] = [];
  const admission = createAdmission({
    ...options,
    refuse: (_request, response) => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end(JSON.stringify({ ok: false, error: { code: "server_busy" } }));
    },
  });
  // /events: a stream as Next serves the live queue's: its compression wraps `write` and drops the
  // callback a write is given; then headers, and a small event every 50 ms.
  // /stream…: a long-lived stream, as server.mjs admits the live queue's: headers, then FLOOD_BYTES, never ended.
  const server: Server = createServer((request, response: ServerResponse) =>
    request.url === "/events"
      ? admission.admit(
          request,
          response,
          () => {
            const write = response.write;
            response.write = function (this: ServerResponse, chunk: unknown, encoding?: unknown) {
              return write.call(this, chunk, encoding as BufferEncoding);
            } as typeof response.write;
            response.writeHead(200, { "content-type": "text/event-stream" });
            const events = setInterval(() => response.write(": heartbeat\n\n"), 50);
            response.once("close", () => clearInterval(events));
          },
          { untilHeaders: true },
        )
      : request.url!.startsWith("/stream")
        ? admission.admit(
            request,
            response,
            () => {
              response.writeHead(200, { "content-type": "text/event-stream" });
              response.write(Buffer.alloc(FLOOD_BYTES, "x"));
            },
            { untilHeaders: true },
          )
        : admission.admit(request, response, () => started.push({ path: request.url!, release: () => response.end("ran " + request.url) })),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    admission,
    started,
    url,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

const until = async (check: () => boolean, what: string, timeoutMs = 2_000) => {
  for (let i = 0; i < timeoutMs / 10 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check(), what).toBe(true);
};

/** A client of a stream that reads its first bytes and then nothing, until told to. */
async function stalledStreamClient(url: string, path: string) {
  const { port } = new URL(url);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  let received = 0;
  socket.on("data", (chunk: Buffer) => (received += chunk.length));
  await new Promise((resolve) => socket.once("data", resolve));
  socket.pause();
  return {
    resume: () => socket.resume(),
    destroy: () => socket.destroy(),
    /** Reads on until the server closes the connection: how many bytes came, headers included. */
    readToEnd: () =>
      new Promise<number>((resolve) => {
        socket.once("close", () => resolve(received));
        socket.resume();
      }),
  };
}

describe("the admission line", () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
  });

  it("runs at most maxConcurrent at once, lets the waiting in by arrival, and refuses beyond the line at once", async () => {
    const line = await lineServer({ maxConcurrent: 2, maxQueued: 2, maxWaitMs: 10_000 });
    close = line.close;
    const answers = ["/a", "/b", "/c", "/d"].map((path) => fetch(line.url + path).then(async (r) => [r.status, await r.text()] as const));
    await until(() => line.admission.stats().waiting === 2, "two wait");
    expect(line.started.map((held) => held.path)).toEqual(["/a", "/b"]);

    // The fifth finds the line full: refused without running.
    const refused = await fetch(line.url + "/e");
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: "server_busy" } });
    expect(line.started.map((held) => held.path)).toEqual(["/a", "/b"]);

    line.started[1]!.release();
    await until(() => line.started.length === 3, "the first in line starts");
    expect(line.started[2]!.path).toBe("/c");
    line.started[0]!.release();
    await until(() => line.started.length === 4, "the second in line starts");
    line.started[2]!.release();
    line.started[3]!.release();
    expect(await Promise.all(answers)).toEqual(["/a", "/b", "/c", "/d"].map((path) => [200, "ran " + path]));
    expect(line.admission.stats()).toMatchObject({ admitted: 4, queued: 2, refusedFull: 1, running: 0, waiting: 0 });
  });

  it("drops a request whose client hung up while it waited, without running it", async () => {
    const line = await lineServer({ maxConcurrent: 1, maxQueued: 5, maxWaitMs: 10_000 });
    close = line.close;
    const first = fetch(line.url + "/first").then((r) => r.text());
    await until(() => line.started.length === 1, "the first runs");
    const gaveUp = new AbortController();
    const abandoned = fetch(line.url + "/abandoned", { signal: gaveUp.signal }).catch((error: Error) => error.name);
    const kept = fetch(line.url + "/kept").then((r) => r.text());
    await until(() => line.admission.stats().waiting === 2, "two wait");
    gaveUp.abort();
    expect(await abandoned).toBe("AbortError");
    await new Promise((resolve) => setTimeout(resolve, 50));

    line.started[0]!.release();
    await until(() => line.started.length === 2, "the next one starts");
    expect(line.started[1]!.path).toBe("/kept");
    line.started[1]!.release();
    expect([await first, await kept]).toEqual(["ran /first", "ran /kept"]);
    expect(line.admission.stats()).toMatchObject({ admitted: 2, abandoned: 1, refusedWaited: 0 });
  });

  it("answers 503 without running a request that waited past maxWaitMs, even while nothing finishes", async () => {
    const line = await lineServer({ maxConcurrent: 1, maxQueued: 5, maxWaitMs: 200 });
    close = line.close;
    const first = fetch(line.url + "/slow").then((r) => r.text());
    await until(() => line.started.length === 1, "the slow one runs");
    const waited = await fetch(line.url + "/waits");
    expect(waited.status).toBe(503);
    expect(line.started.map((held) => held.path)).toEqual(["/slow"]);
    line.started[0]!.release();
    expect(await first).toBe("ran /slow");
    expect(line.admission.stats()).toMatchObject({ admitted: 1, refusedWaited: 1 });
  });

  it("counts a stream as running while what it wrote waits unsent, for at most half the places, and cuts it past maxStreamWriteMs", async () => {
    const line = await lineServer({ maxConcurrent: 2, maxQueued: 5, maxWaitMs: 60_000, maxStreamWriteMs: 1_500 });
    close = line.close;
    // Two readers that stopped reading: the first stream takes the one place streams may take, the second none.
    const a = await stalledStreamClient(line.url, "/stream-a");
    await until(() => line.admission.stats().streamsWriting === 1, "a stream that writes counts");
    const b = await stalledStreamClient(line.url, "/stream-b");
    expect(line.admission.stats()).toMatchObject({ streamsWriting: 1, running: 1 });
    // So one read runs beside them, and the next waits for a place.
    const first = fetch(line.url + "/first").then((r) => r.text());
    await until(() => line.started.length === 1, "one read runs");
    const next = fetch(line.url + "/next").then((r) => r.text());
    await until(() => line.admission.stats().waiting === 1, "the next waits");
    expect(line.started.map((held) => held.path)).toEqual(["/first"]);
    // Cut past maxStreamWriteMs: both streams end, the place is given back, the read waiting gets it.
    await until(() => line.admission.stats().streamsCut === 2, "both stalled streams are cut", 10_000);
    await until(() => line.started.length === 2, "the waiting read starts once the stalled stream is cut", 10_000);
    expect(line.admission.stats()).toMatchObject({ streamsWriting: 0 });
    // Read at last, each ends short of what was written.
    const lengths = await Promise.all([a, b].map((client) => client.readToEnd()));
    for (const length of lengths) expect(length).toBeLessThan(FLOOD_BYTES);
    for (const held of line.started) held.release();
    expect([await first, await next]).toEqual(["ran /first", "ran /next"]);
  });

  it("sees a stream's writes handed to its connection through a wrapper that drops their callbacks (Next's compression)", async () => {
    const line = await lineServer({ maxConcurrent: 2, maxQueued: 5, maxWaitMs: 60_000, maxStreamWriteMs: 300 });
    close = line.close;
    const reader = await stalledStreamClient(line.url, "/events");
    reader.resume();
    // Many times maxStreamWriteMs of small events, each taken by the reader at once.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(line.admission.stats()).toMatchObject({ streamsCut: 0 });
    await until(() => line.admission.stats().streamsWriting === 0, "between events, it holds no place");
    reader.destroy();
  });

  it("gives a stream's place back once its reader has taken what it wrote", async () => {
    const line = await lineServer({ maxConcurrent: 2, maxQueued: 5, maxWaitMs: 60_000, maxStreamWriteMs: 60_000 });
    close = line.close;
    const reader = await stalledStreamClient(line.url, "/stream-read");
    await until(() => line.admission.stats().streamsWriting === 1, "a stream that writes counts");
    reader.resume();
    await until(() => line.admission.stats().streamsWriting === 0, "read to the end, it holds no place", 30_000);
    expect(line.admission.stats()).toMatchObject({ running: 0, streamsCut: 0 });
    reader.destroy();
  });
});

describe("server.mjs under a crowd, with one read at a time and no line", () => {
  let database: TestDatabase;
  let server: ConsoleServer;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startConsoleServer(database.url, { MAX_CONCURRENT_REQUESTS: "1", MAX_QUEUED_REQUESTS: "0" });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("refuses reads it cannot take with 503 server_busy (JSON for the API, a page in the reader's language for a browser), never a write or the liveness check", async () => {
    const crowd = await Promise.all(Array.from({ length: 12 }, () => fetch(`${server.url}/api/runs`)));
    const statuses = crowd.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length, "the one let in ran (anonymous: 401)").toBeGreaterThanOrEqual(1);
    const busy = crowd.filter((response) => response.status === 503);
    expect(busy.length, `statuses ${statuses}`).toBeGreaterThan(0);
    expect(busy[0]!.headers.get("retry-after")).toBe("2");
    expect(busy[0]!.headers.get("x-frame-options")).toBe("DENY");
    expect(await busy[0]!.json()).toMatchObject({ ok: false, error: { code: "server_busy" } });

    const pages = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${server.url}/sign-in`, { headers: { accept: "text/html", "accept-language": "ko-KR,ko;q=0.9" } }),
      ),
    );
    const busyPage = pages.find((response) => response.status === 503);
    expect(busyPage, `statuses ${pages.map((response) => response.status)}`).toBeDefined();
    expect(busyPage!.headers.get("content-type")).toContain("text/html");
    const html = await busyPage!.text();
    expect(html).toContain('lang="ko"');
    expect(html).toContain("콘솔이 혼잡합니다");

    // Writes never wait and are never refused for load: a crowd of them all reach the route (anonymous: 401).
    const writes = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${server.url}/api/decisions`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url },
          body: JSON.stringify({ action: "approve", runId: "r", toolCallId: "c" }),
        }),
      ),
    );
    expect(writes.map((response) => response.status)).not.toContain(503);

    const health = await Promise.all([
      fetch(`${server.url}/api/runs`),
      ...Array.from({ length: 5 }, () => fetch(`${server.url}/api/health`)),
    ]);
    expect(health.slice(1).map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
  });
});
