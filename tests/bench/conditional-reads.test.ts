/**
 * The open loop's conditional readers (bench/arrivals.ts `openLoop(…, { conditional: true })`): each
 * reader sends GET /api/queue with If-None-Match, the ETag it last got for that same query, other
 * reads and other readers' tags untouched, and the 304s are counted. Against a stand-in server that
 * answers a fixed ETag per reader and query.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isQueueRead, openLoop, type Request } from "../../bench/arrivals.ts";
import type { ConsoleServer } from "../../tests/helpers/console-server.ts";

interface Seen {
  cookie: string;
  path: string;
  ifNoneMatch?: string;
}
const seen: Seen[] = [];
let server: http.Server;
let consoleServer: ConsoleServer;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const cookie = request.headers.cookie ?? "";
    const ifNoneMatch = request.headers["if-none-match"];
    seen.push({ cookie, path: request.url!, ...(ifNoneMatch ? { ifNoneMatch } : {}) });
    if (!request.url!.startsWith("/api/queue")) return void response.end("page");
    const etag = `W/"${cookie}|${request.url}"`;
    if (ifNoneMatch === etag) return void response.writeHead(304, { etag }).end();
    response.writeHead(200, { etag, "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  consoleServer = { url, pid: process.pid, output: () => "", stop: async () => {} };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the open loop's conditional reads", () => {
  it("sends each reader's last ETag for the same query, and counts the 304s", async () => {
    const paths = ["/api/queue?perPage=20", "/api/queue?resourceId=cust_b0001", "/runs/r1"];
    let i = 0;
    const next = (): Request => ({
      kind: paths[i % 3]!.startsWith("/api") ? "api queue" : "run page",
      method: "GET",
      path: paths[i++ % 3]!,
    });
    const result = await openLoop(1, [consoleServer], ["ada", "grace"], 60, next, undefined, { conditional: true });

    const queueReads = seen.filter((s) => s.path.startsWith("/api/queue"));
    expect(result.queueReads!.sent).toBe(queueReads.length);
    // Each reader's first read of each query goes without a tag; every later one sends the tag it got for that query.
    const firsts = new Set<string>();
    for (const read of queueReads) {
      const key = `${read.cookie} ${read.path}`;
      if (!firsts.has(key) && !read.ifNoneMatch) {
        firsts.add(key);
        continue;
      }
      expect(read.ifNoneMatch).toBe(`W/"${read.cookie}|${read.path}"`);
    }
    expect(firsts.size).toBe(4);
    expect(result.queueReads!.withEtag).toBe(queueReads.filter((read) => read.ifNoneMatch).length);
    expect(result.queueReads!.notModified).toBe(result.statuses["api queue 304"]);
    expect(result.queueReads!.notModified).toBeGreaterThan(0);
    expect(seen.filter((s) => !s.path.startsWith("/api/queue")).every((s) => s.ifNoneMatch === undefined)).toBe(true);
  });

  it("sends no If-None-Match unless asked", async () => {
    seen.length = 0;
    const result = await openLoop(1, [consoleServer], ["ada"], 20, () => ({ kind: "api queue", method: "GET", path: "/api/queue" }));
    expect(result.queueReads).toBeUndefined();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.ifNoneMatch === undefined)).toBe(true);
  });

  it("takes only GET /api/queue for a conditional read", () => {
    expect(isQueueRead({ method: "GET", path: "/api/queue?risk=high" })).toBe(true);
    expect(isQueueRead({ method: "GET", path: "/?resourceId=x" })).toBe(false);
    expect(isQueueRead({ method: "POST", path: "/api/queue" })).toBe(false);
  });
});
