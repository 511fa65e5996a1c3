/**
 * "Earlier in this thread" in remote mode (MASTRA_SERVER_URL): read through the team's Mastra server
 * (its memory messages route), it equals what embedded mode reads from the same store, page for
 * page; a thread the server does not know has nothing earlier. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEarlierInThread } from "../../lib/decisions/earlier-in-thread.ts";
import type { EarlierInThreadPage } from "../../lib/runs/conversation-dto.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";
import { finishedThenWaiting, longThreadThenWaiting } from "../helpers/thread-history.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";

describe.each(["sqlite", "postgres"] as const)("earlier in this thread in remote mode on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let mastraServer: MastraServerProcess;
  const saved = { url: process.env.MASTRA_SERVER_URL, token: process.env.MASTRA_SERVER_TOKEN };

  beforeAll(async () => {
    mastraServer = await startMastraServer(database.url);
  }, 120_000);

  afterAll(async () => {
    remote(false);
    await mastraServer?.stop();
  });

  function remote(on: boolean) {
    for (const [key, value] of [
      ["MASTRA_SERVER_URL", on ? mastraServer.url : saved.url],
      ["MASTRA_SERVER_TOKEN", on ? TEST_SERVER_TOKEN : saved.token],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }

  /** Every page of the run's earlier messages, newest page first, in the mode asked for. */
  async function allPages(runId: string, throughServer: boolean): Promise<EarlierInThreadPage[]> {
    remote(throughServer);
    try {
      const pages: EarlierInThreadPage[] = [];
      let before: string | undefined;
      do {
        const page = await getEarlierInThread(runId, { before }, database.url);
        pages.push(page);
        before = page.before ?? undefined;
      } while (before && pages.length < 10);
      return pages;
    } finally {
      remote(false);
    }
  }

  it("reads the same earlier messages through the server as from the store", async () => {
    const history = await finishedThenWaiting(database.url);
    const embedded = await allPages(history.waiting.runId, false);
    expect(embedded[0]!.messages.length).toBeGreaterThan(0);
    expect(await allPages(history.waiting.runId, true)).toEqual(embedded);
    expect(mastraServer.output()).toMatch(new RegExp(`GET /api/memory/threads/${history.thread}/messages`));
  });

  it("pages a long thread the same way", async () => {
    const { runId } = await longThreadThenWaiting(database.url, 120);
    const embedded = await allPages(runId, false);
    expect(embedded.map((page) => page.messages.length)).toEqual([50, 50, 20]);
    expect(await allPages(runId, true)).toEqual(embedded);
  });

  it("a thread the server keeps no messages of has nothing earlier", async () => {
    const refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8820"));
    expect(await allPages(refund.runId, true)).toEqual([
      { runId: refund.runId, threadId: refund.thread, agentRemembers: false, messages: [], remaining: 0, before: null },
    ]);
  });

  it("asks the server whether the agent keeps memory: a refund on the shipping agent's thread has nothing earlier", async () => {
    const history = await finishedThenWaiting(database.url);
    const refund = await runUntilWaiting((await createConsoleMastra(database.url)).getAgent("refunds"), refundRequest("ORD-8821"), {
      thread: history.thread,
      resource: history.resource,
    });
    const nothing = [{ runId: refund.runId, threadId: history.thread, agentRemembers: false, messages: [], remaining: 0, before: null }];
    expect(await allPages(refund.runId, false)).toEqual(nothing);
    expect(await allPages(refund.runId, true)).toEqual(nothing);
    expect(mastraServer.output()).toMatch(/GET \/api\/memory\/status\?agentId=refunds/);
  });
});
