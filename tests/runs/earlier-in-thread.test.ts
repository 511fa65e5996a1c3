/**
 * "Earlier in this thread": the messages of a waiting run's memory thread from before the run, from
 * the shipping demo agent's real memory (Mastra's store) on SQLite and PostgreSQL. They are what the
 * first run was sent and said, never this run's; the Conversation keeps only this run's; a long
 * thread comes a page at a time, newest page first, and nothing is lost or repeated across pages.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EARLIER_PAGE_SIZE, getEarlierInThread } from "../../lib/decisions/earlier-in-thread.ts";
import { SHIPPING_LAST_MESSAGES } from "../../lib/mastra/demo/agents.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { getRunConversation } from "../../lib/runs/conversation.ts";
import type { ConversationMessageDto } from "../../lib/runs/conversation-dto.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { finishedThenWaiting, longThreadThenWaiting } from "../helpers/thread-history.ts";

const textsOf = (messages: ConversationMessageDto[], role?: string) =>
  messages
    .filter((message) => !role || message.role === role)
    .flatMap((message) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])));

describe.each(["sqlite", "postgres"] as const)("earlier in this thread on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("shows the finished run's messages as the agent and the customer sent them, and none of this run's", async () => {
    const history = await finishedThenWaiting(database.url);
    const page = await getEarlierInThread(history.waiting.runId, {}, database.url);
    expect(page).toMatchObject({
      runId: history.waiting.runId,
      threadId: history.thread,
      agentRemembers: true,
      remaining: 0,
      before: null,
    });
    expect(textsOf(page.messages, "user")).toEqual([history.first.text]);
    expect(textsOf(page.messages, "assistant")).toEqual([history.first.answer]);
    expect(history.first.answer).toMatch(/^Order ORD-8801 will ship to Home/);
    const calls = page.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === "tool-call" ? [part] : [])));
    expect(calls).toEqual([
      expect.objectContaining({ toolName: "chooseShippingAddress", hasResult: true, result: expect.objectContaining({ shipped: true }) }),
    ]);
    const times = page.messages.map((message) => message.createdAt);
    expect(times.every((time) => time !== null)).toBe(true);
    expect(times).toEqual([...times].sort());
    expect(JSON.stringify(page)).not.toContain("ORD-8802");
    // The Conversation is this run's only, though the agent's memory sent it the first run's too.
    const conversation = (await getRunConversation(history.waiting.runId, {}, database.url))!;
    expect(textsOf(conversation.messages, "user")).toEqual([history.waiting.text]);
    expect(JSON.stringify(conversation.messages)).not.toContain("ORD-8801");
  });

  it("a run on a thread nobody remembers, or without a thread, has nothing earlier", async () => {
    const refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8810"));
    expect(await getEarlierInThread(refund.runId, {}, database.url)).toEqual({
      runId: refund.runId,
      threadId: refund.thread,
      agentRemembers: false,
      messages: [],
      remaining: 0,
      before: null,
    });
    const none = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8811"), "none");
    expect(await getEarlierInThread(none.runId, {}, database.url)).toMatchObject({ threadId: null, messages: [], remaining: 0 });
  });

  it("a run whose agent keeps no memory has nothing earlier, though another agent's memory keeps its thread", async () => {
    const history = await finishedThenWaiting(database.url);
    // The refunds agent keeps no memory: on the shipping agent's ticket it was sent only its own request.
    const refund = await runUntilWaiting((await createConsoleMastra(database.url)).getAgent("refunds"), refundRequest("ORD-8812"), {
      thread: history.thread,
      resource: history.resource,
    });
    expect(await getEarlierInThread(refund.runId, {}, database.url)).toEqual({
      runId: refund.runId,
      threadId: history.thread,
      agentRemembers: false,
      messages: [],
      remaining: 0,
      before: null,
    });
    // The shipping agent's waiting run on that thread still shows what it remembers.
    const shipping = await getEarlierInThread(history.waiting.runId, {}, database.url);
    expect(textsOf(shipping.messages, "user")).toEqual([history.first.text]);
  });

  it("pages through 120 earlier messages, newest page first, none lost or repeated", async () => {
    const { runId, texts } = await longThreadThenWaiting(database.url, 120);
    const pages = [];
    let before: string | undefined;
    do {
      const page = await getEarlierInThread(runId, { before }, database.url);
      pages.push(page);
      before = page.before ?? undefined;
    } while (before && pages.length < 10);
    expect(pages.map((page) => [page.messages.length, page.remaining])).toEqual([
      [EARLIER_PAGE_SIZE, 70],
      [EARLIER_PAGE_SIZE, 20],
      [20, 0],
    ]);
    expect(pages.reverse().flatMap((page) => textsOf(page.messages))).toEqual(texts);
    // The agent was sent the last of them; its Conversation still shows only its own request.
    const conversation = (await getRunConversation(runId, {}, database.url))!;
    expect(textsOf(conversation.messages)).not.toContain(texts.at(-1));
    expect(textsOf(conversation.messages, "user")).toHaveLength(1);
    expect(SHIPPING_LAST_MESSAGES).toBeLessThan(120);
  });

  it("an unknown run is a clear error", async () => {
    const runId = randomUUID();
    await expect(getEarlierInThread(runId, {}, database.url)).rejects.toMatchObject({
      code: "run_not_found",
      message: `No agent run "${runId}" is waiting in the store: it finished, or never existed.`,
    });
  });
});
