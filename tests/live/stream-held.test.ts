/**
 * A live stream read by its client stays open on the production server (server.mjs, Next's
 * compression wrapping every response's `write`): its writes are seen handed to the connection, so
 * LIVE_WRITE_TIMEOUT_MS cuts only a reader that stopped reading. It used to cut every stream that
 * long after its first write, the timer never told that the write had gone out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { openStream } from "../helpers/live-stream.ts";

describe("a live stream that is read", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startConsoleServer(database.url, { LIVE_WRITE_TIMEOUT_MS: "1000", LIVE_HEARTBEAT_MS: "1000" });
    cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer"));
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database?.drop();
  });

  it("stays open for many times LIVE_WRITE_TIMEOUT_MS, its heartbeats arriving", async () => {
    const stream = await openStream(server, cookie);
    expect(stream.status).toBe(200);
    await stream.waitFor((event) => event.event === "ready");
    // Six heartbeats, a second apart: a stream cut a second after its first write would get at most one.
    await expect.poll(() => stream.comments, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(6);
    stream.close();
  });
});
