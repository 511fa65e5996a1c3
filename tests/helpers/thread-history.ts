/**
 * Memory threads with a history, for "Earlier in this thread": the shipping demo agent (the one with
 * memory) answers a first request to its end, then waits on a second one in the same thread; or a
 * thread is given many earlier messages straight through Mastra's memory store, then a run waits on it.
 */
import { randomUUID } from "node:crypto";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { readAnswer, runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";

export interface ThreadWithHistory {
  thread: string;
  resource: string;
  /** What the first (finished) run was sent, the address chosen for it and what the agent answered. */
  first: { text: string; addressId: string; answer: string };
  /** The run waiting now, and what it was sent. */
  waiting: { runId: string; toolCallId: string; text: string };
}

/**
 * A first shipping run answered to its end, then a second one waiting, on one thread of `resource`.
 * `note`: a last line added to the first request.
 */
export async function finishedThenWaiting(
  databaseUrl: string,
  { resource = `cust_${randomUUID()}`, note = "" }: { resource?: string; note?: string } = {},
): Promise<ThreadWithHistory> {
  const thread = `ticket-${randomUUID()}`;
  const memory = { thread, resource };
  const firstRequest = requests.shipping({ order: "ORD-8801", email: "first@customer.example" });
  // A line the playbook does not read: what a customer adds in their own words.
  if (note) firstRequest.text += `\nNote: ${note}`;
  const firstHost = await createConsoleMastra(databaseUrl);
  const agent = firstHost.getAgent("shipping");
  const firstCall = await runUntilWaiting(agent, firstRequest.text, memory);
  const addressId = firstRequest.addresses[0]!.id;
  const answer = await readAnswer(await agent.resumeStream({ addressId }, { runId: firstCall.runId, toolCallId: firstCall.toolCallId }));
  const secondRequest = requests.shipping({ order: "ORD-8802", email: "second@customer.example" });
  // A Mastra instance of its own, as a second request to an agent host would be.
  const call = await runUntilWaiting((await createConsoleMastra(databaseUrl)).getAgent("shipping"), secondRequest.text, memory);
  return {
    thread,
    resource,
    first: { text: firstRequest.text, addressId, answer },
    waiting: { runId: call.runId, toolCallId: call.toolCallId, text: secondRequest.text },
  };
}

/**
 * A thread holding `count` earlier messages (alternately the customer's and the agent's, one second
 * apart, "message 1" oldest), then a shipping run waiting on it. Returns the thread and the run.
 */
export async function longThreadThenWaiting(
  databaseUrl: string,
  count: number,
): Promise<{ thread: string; runId: string; texts: string[] }> {
  const mastra = await createConsoleMastra(databaseUrl);
  const memory = (await mastra.getStorage()!.getStore("memory"))!;
  const thread = `ticket-${randomUUID()}`;
  const resource = `cust_${randomUUID()}`;
  const start = Date.now() - (count + 60) * 1000;
  await memory.saveThread({
    thread: { id: thread, resourceId: resource, title: "", createdAt: new Date(start), updatedAt: new Date(start) },
  });
  const texts = Array.from({ length: count }, (_, i) => `message ${i + 1}`);
  for (let offset = 0; offset < count; offset += 500) {
    await memory.saveMessages({
      messages: texts.slice(offset, offset + 500).map((text, j) => ({
        id: randomUUID(),
        threadId: thread,
        resourceId: resource,
        role: (offset + j) % 2 === 0 ? ("user" as const) : ("assistant" as const),
        type: "text",
        createdAt: new Date(start + (offset + j) * 1000),
        content: { format: 2 as const, parts: [{ type: "text" as const, text }] },
      })),
    });
  }
  const call = await runUntilWaiting(
    (await createConsoleMastra(databaseUrl)).getAgent("shipping"),
    requests.shipping({ order: "ORD-8803" }).text,
    { thread, resource },
  );
  return { thread, runId: call.runId, texts };
}
