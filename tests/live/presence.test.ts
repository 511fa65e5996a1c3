/**
 * Presence over real console servers (on PostgreSQL a call opened on instance A is seen by a stream
 * held on B): who has a call open reaches the other readers' streams as a `presence` change with
 * its viewers; it is checked by the server (the viewer is whoever is signed in, a call that does not
 * wait is left out, another user cannot close someone's calls, at most 20 calls a tab and 100 open
 * at once a person); it leaves when the tab's stream ends, and rows of a stream no instance holds
 * any more (its instance died) expire and are pruned, which the streams are told too.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { PRESENCE_TTL_MS, prunePresence } from "../../lib/live/presence.ts";
import type { StreamReadyDto } from "../../lib/live/types.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";
import { openStream, type LiveStream, type StreamEvent } from "../helpers/live-stream.ts";

type Viewers = Array<{ userId: string; name: string }>;
const env = { LIVE_HEARTBEAT_MS: "1000", LIVE_POLL_MS: "100" };

describe.each(["sqlite", "postgres"] as const)("presence on %s", { timeout: 240_000 }, (kind) => {
  let database: TestDatabase;
  let servers: ConsoleServer[] = [];
  let ada: TestAccount;
  let grace: TestAccount;
  const cookies: Record<string, string> = {};
  let runs: DemoRun[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    servers = await Promise.all((kind === "postgres" ? [1, 2] : [1]).map(() => startConsoleServer(database.url, env)));
    [ada, grace] = await Promise.all([
      createTestAccount(database.url, "reviewer", `ada-${kind}`),
      createTestAccount(database.url, "support", `grace-${kind}`),
    ]);
    cookies.ada = await sessionCookie(database.url, ada);
    cookies.grace = await sessionCookie(database.url, grace);
    for (let i = 0; i < 20; i++)
      runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(`ORD-49${String(i).padStart(2, "0")}`)));
  }, 200_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await disconnectDb(database.url);
    await database.drop();
  });

  const post = (server: ConsoleServer, cookie: string | null, body: unknown) =>
    fetch(`${server.url}/api/events/presence`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const opened = async (server: ConsoleServer, cookie: string, body: unknown): Promise<Array<{ runId: string; viewers: Viewers }>> => {
    const response = await post(server, cookie, body);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()).data.calls;
  };
  const ready = async (stream: LiveStream) => JSON.parse((await stream.waitFor((event) => event.event === "ready")).data) as StreamReadyDto;
  /** The latest presence change of the run this stream was sent once `match` holds for its viewers. */
  const presenceOf = (stream: LiveStream, runId: string, match: (viewers: Viewers) => boolean) =>
    stream.waitFor((event: StreamEvent) => {
      if (event.event !== "change") return false;
      const change = JSON.parse(event.data) as { kind: string; runId: string; viewers?: Viewers };
      return change.kind === "presence" && change.runId === runId && match(change.viewers ?? []);
    });
  const names = (viewers: Viewers) => viewers.map((viewer) => viewer.name);

  it("tells the others' streams who opened a call, and that they left when their tab's stream ended", async () => {
    const [a, b] = [servers[0]!, servers.at(-1)!];
    const [run] = runs as [DemoRun];
    const watching = await openStream(b, cookies.grace!);
    const graces = await ready(watching);
    expect(graces.me).toBe(grace.id);

    const adaStream = await openStream(a, cookies.ada!);
    const adas = await ready(adaStream);
    expect((await opened(a, cookies.ada!, { stream: adas.stream, calls: [run.ref] })).map((call) => names(call.viewers))).toEqual([
      [ada.name],
    ]);
    await presenceOf(watching, run.runId, (viewers) => names(viewers).includes(ada.name));

    // Grace opens it too (on her instance): she hears back both, first opener first.
    expect(
      (await opened(b, cookies.grace!, { stream: graces.stream, calls: [run.ref] }))[0]!.viewers.map((viewer) => viewer.userId),
    ).toEqual([ada.id, grace.id]);
    // Naming Ada's stream, Grace can neither close Ada's calls nor appear as her.
    await opened(b, cookies.grace!, { stream: adas.stream, calls: [] });
    const db = await getDb(database.url);
    expect(await db.callPresence.count({ where: { streamId: adas.stream, userId: ada.id } })).toBe(1);

    adaStream.close();
    await presenceOf(watching, run.runId, (viewers) => !names(viewers).includes(ada.name) && names(viewers).includes(grace.name));
    expect(await db.callPresence.count({ where: { userId: ada.id } })).toBe(0);
    watching.close();
    await expect.poll(() => db.callPresence.count({ where: { userId: grace.id } }), { timeout: 10_000 }).toBe(0);
  });

  it("checks what a tab says: calls that do not wait are left out, bad input and strangers are refused, nothing changes", async () => {
    const server = servers[0]!;
    const stream = randomUUID();
    expect(await opened(server, cookies.ada!, { stream, calls: [{ runId: "no-such-run", toolCallId: "call_1" }] })).toEqual([]);
    const db = await getDb(database.url);
    const refusals = [
      { body: { stream: "x", calls: [] }, status: 400 },
      { body: { stream, calls: runs.map((run) => run.ref).concat({ runId: "r", toolCallId: "c" }) }, status: 400 },
      { body: { stream, calls: [{ ...runs[0]!.ref, extra: 1 }] }, status: 400 },
      { body: { stream, calls: [{ runId: "r\u0000", toolCallId: "c" }] }, status: 400 },
      { body: { stream, calls: "all" }, status: 400 },
    ];
    for (const { body, status } of refusals) {
      const response = await post(server, cookies.ada!, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await response.json()).error.code).toBe("invalid_input");
    }
    expect((await post(server, null, { stream, calls: [runs[0]!.ref] })).status).toBe(401);
    expect(await db.callPresence.count()).toBe(0);
  });

  it("bounds one person's open calls, and prunes those of a stream no instance holds once they expire", async () => {
    const [a, b] = [servers[0]!, servers.at(-1)!];
    const watching = await openStream(b, cookies.grace!);
    await ready(watching);
    // Five tabs with twenty calls each is the most: a sixth tab's first call is refused, in words.
    const tabs = Array.from({ length: 6 }, () => randomUUID());
    for (const stream of tabs.slice(0, 5)) await opened(a, cookies.ada!, { stream, calls: runs.map((run) => run.ref) });
    const refused = await post(a, cookies.ada!, { stream: tabs[5], calls: [runs[0]!.ref] });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatchObject({ code: "rate_limited", message: expect.stringContaining("100") });
    const db = await getDb(database.url);
    expect(await db.callPresence.count({ where: { userId: ada.id } })).toBe(100);

    // No instance holds those five streams: nothing pushes them on, and once expired they are pruned.
    expect(await prunePresence(db)).toBe(0);
    expect(await prunePresence(db, new Date(Date.now() + PRESENCE_TTL_MS + 1_000))).toBe(100);
    await presenceOf(watching, runs[19]!.runId, (viewers) => viewers.length === 0);
    watching.close();
  });
});
