/** `npm run seed`: the demo agents run into suspension on the console's own store. */
import { listSuspendedRuns } from "../../runs/list-suspended-runs.ts";
import { getDb } from "../../db/client.ts";
import { createConsoleMastra } from "../index.ts";
import { delegatedDemoRequests, demoRequests, demoThreadHistory, demoWorkflowRequests, durableDemoRequests } from "./demo-backlog.ts";
import type { DemoRequest } from "./requests.ts";
import { readAnswer, runUntilWaiting, startUntilSuspended } from "./run-until-waiting.ts";

export interface SeedResult {
  created: number;
  skipped: boolean;
  pending: number;
}

/**
 * Runs the demo agents on the demo requests until each waits for a reviewer: the snapshots are
 * written by Mastra itself. Does nothing when the store already holds pending runs, unless `reset`.
 */
export async function seedDemoRuns(
  databaseUrl: string,
  { reset = false, log = console.log }: { reset?: boolean; log?: (line: string) => void } = {},
): Promise<SeedResult> {
  const existing = await listSuspendedRuns({ perPage: 1, page: 0 }, databaseUrl);
  if (existing.total > 0 && !reset) {
    log(`The store already holds ${existing.total} pending runs; nothing seeded (use --reset to start over).`);
    return { created: 0, skipped: true, pending: existing.total };
  }
  if (reset) await (await getDb(databaseUrl)).workflowSnapshot.deleteMany();

  // Conversations that ended before the backlog: what its memory keeps of a thread, shown as
  // "Earlier in this thread" beside a later call there.
  // Once per database: a reset leaves Mastra's memory store as it is.
  for (const { agent, text, thread, resource, addressId } of demoThreadHistory()) {
    const mastra = await createConsoleMastra(databaseUrl);
    const memory = await mastra.getStorage()?.getStore("memory");
    if ((await memory?.listMessages({ threadId: thread, perPage: 1 }))?.total) continue;
    const host = mastra.getAgent(agent);
    const call = await runUntilWaiting(host, text, { thread, resource });
    await readAnswer(await host.resumeStream({ addressId }, { runId: call.runId, toolCallId: call.toolCallId }));
  }

  // Mastra holds a second stream on a thread that already has a suspended run in the same
  // instance, so the n-th request of every thread runs on the n-th instance.
  const rounds: DemoRequest[][] = [];
  const seenPerThread = new Map<string, number>();
  for (const request of [...demoRequests(), ...delegatedDemoRequests(), ...durableDemoRequests()]) {
    // Runs without a thread do not hold each other up.
    const key = request.thread || `no thread ${seenPerThread.size}`;
    const round = seenPerThread.get(key) ?? 0;
    seenPerThread.set(key, round + 1);
    (rounds[round] ??= []).push(request);
  }

  let created = 0;
  for (const requests of rounds) {
    const mastra = await createConsoleMastra(databaseUrl);
    for (const request of requests) {
      // A run without a thread: with its resource only, or without memory at all.
      const memory = request.thread
        ? { thread: request.thread, resource: request.resource }
        : request.resource
          ? { resource: request.resource }
          : undefined;
      await runUntilWaiting(mastra.getAgent(request.agent), request.text, memory);
      created++;
    }
  }
  const mastra = await createConsoleMastra(databaseUrl);
  for (const { resource, input } of demoWorkflowRequests()) {
    await startUntilSuspended(mastra.getWorkflow("refundApproval"), input, { resource, databaseUrl });
    created++;
  }
  const { total } = await listSuspendedRuns({ perPage: 1, page: 0 }, databaseUrl);
  log(`Seeded ${created} runs; ${total} pending tool calls wait for a reviewer.`);
  return { created, skipped: false, pending: total };
}
