/**
 * Remote mode and the live queue: a run started on the team's own Mastra server (the example server,
 * its own process, asked over HTTP as the team's app would) that stops to wait for a reviewer reaches
 * a stream held on a remote-mode console, which never ran it, through the database they share; the
 * queue then lists it, with no reload. Once a reviewer approves it through the console (carried out
 * by the Mastra server), the stream says it left. On SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest } from "../helpers/demo-runs.ts";
import { changesIn, openStream } from "../helpers/live-stream.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";

describe.each(["sqlite", "postgres"] as const)("the live queue in remote mode on %s", { timeout: 240_000 }, (kind) => {
  let database: TestDatabase;
  let mastraServer: MastraServerProcess;
  let consoleServer: ConsoleServer;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastraServer = await startMastraServer(database.url);
    consoleServer = await startConsoleServer(database.url, {
      MASTRA_SERVER_URL: mastraServer.url,
      MASTRA_SERVER_TOKEN: TEST_SERVER_TOKEN,
      LIVE_POLL_MS: "100",
    });
    cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer"));
  }, 180_000);
  afterAll(async () => {
    await consoleServer?.stop();
    await mastraServer?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("a run that starts waiting on the team's server reaches an open stream, and the queue lists it without a reload", async () => {
    const stream = await openStream(consoleServer, cookie);
    expect(stream.status).toBe(200);
    await stream.waitFor((event) => event.event === "ready");

    const resource = `cust_${randomUUID()}`;
    const thread = `ticket-${randomUUID()}`;
    const started = await fetch(`${mastraServer.url}/api/agents/refunds/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TEST_SERVER_TOKEN}` },
      body: JSON.stringify({ messages: [{ role: "user", content: refundRequest("ORD-4801") }], memory: { thread, resource } }),
    });
    expect(started.status, await started.clone().text()).toBe(200);
    expect(mastraServer.output()).toMatch(/--> POST \/api\/agents\/refunds\/generate 200/);

    const waiting = await stream.waitFor(
      (event) => event.event === "change" && JSON.parse(event.data).kind === "waiting" && JSON.parse(event.data).resourceId === resource,
      30_000,
    );
    const change = JSON.parse(waiting.data) as { runId: string; toolCallId: string; agentId: string; threadId: string };
    expect(change).toMatchObject({ agentId: "refunds", threadId: thread });

    // What the runs page does on that change: read the list again; the run is in it.
    const queue = await fetch(`${consoleServer.url}/api/queue?resourceId=${encodeURIComponent(resource)}`, { headers: { cookie } });
    expect(queue.status).toBe(200);
    const page = (await queue.json()) as { data: { threads: Array<{ runs: Array<{ runId: string }> }> } };
    expect(page.data.threads.flatMap((listed) => listed.runs.map((run) => run.runId))).toEqual([change.runId]);

    // Decided through the console, carried out by the team's server: the stream says it left.
    const decided = await postDecision(consoleServer, cookie, { action: "approve", runId: change.runId, toolCallId: change.toolCallId });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    await stream.waitFor(
      (event) => event.event === "change" && JSON.parse(event.data).kind === "left" && JSON.parse(event.data).runId === change.runId,
    );
    expect(
      changesIn(stream)
        .filter((seen) => seen.runId === change.runId)
        .map((seen) => seen.kind),
    ).toEqual(expect.arrayContaining(["waiting", "decision.recorded", "left"]));
    stream.close();
  });
});
