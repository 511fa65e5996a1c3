/**
 * Child of bench/run.ts: what opening a call costs the server on one store, now that a call opens
 * with its context: the run's detail (readRun), its conversation (readConversation), its tool's
 * description (readToolInfo) and its earlier decisions (readEarlierDecisions), as the four
 * requests the browser sends at once. Sampled over calls spread across the whole backlog.
 * Answers with one JSON line: for each store's URL, { stats, calls }. As a console server runs, the
 * store is DATABASE_URL while it is measured (the run detail's settings are read from it).
 * Usage: tsx bench/context-child.ts <database url>… [--quick]
 */
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { earlierDecisions } from "../lib/decisions/earlier.ts";
import { toolInfoOf } from "../lib/decisions/tool-info.ts";
import { getRunDetail } from "../lib/queue/views.ts";
import { getRunConversation } from "../lib/runs/conversation.ts";
import type { ConsoleRun } from "../lib/runs/list-suspended-runs.ts";
import { findSuspendedRun } from "../lib/runs/run-detail.ts";
import { eachStore, storeArgs } from "./children.ts";
import { measure } from "./timing.ts";

const { urls, quick } = storeArgs("context-child.ts");
console.log(JSON.stringify(await eachStore(urls, measureContext)));
process.exit(0);

async function measureContext(url: string) {
  process.env.DATABASE_URL = url;
  const db = await getDb(url);
  const total = await db.workflowSnapshot.count({ where: { status: "suspended", agentId: { not: null } } });
  const SAMPLES = 40;
  // Every total/SAMPLES-th run in key order: old and new, every agent and shape of the backlog.
  const picked = await Promise.all(
    Array.from({ length: SAMPLES }, (_, i) =>
      db.workflowSnapshot.findFirst({
        where: { status: "suspended", agentId: { not: null } },
        orderBy: [{ workflowName: "asc" }, { runId: "asc" }],
        skip: Math.floor((i * total) / SAMPLES),
        select: { runId: true },
      }),
    ),
  );
  const calls: Array<{ run: ConsoleRun; call: ConsoleRun["toolCalls"][number] }> = [];
  for (const row of picked) {
    const run = row && (await findSuspendedRun(row.runId, url));
    const call = run?.toolCalls[0];
    if (run && call?.toolCallId) calls.push({ run, call });
  }
  let next = 0;
  const { stats } = await measure(
    async () => {
      const { run, call } = calls[next++ % calls.length]!;
      await Promise.all([
        getRunDetail(run.runId, url),
        getRunConversation(run.runId, {}, url),
        toolInfoOf(run.agentId, call, url),
        earlierDecisions(
          {
            runId: run.runId,
            toolCallId: call.toolCallId!,
            toolName: call.toolName ?? null,
            resourceId: run.resourceId ?? null,
            threadId: run.threadId ?? null,
          },
          { databaseUrl: url },
        ),
      ]);
    },
    quick
      ? { warmup: 5, minSamples: 20, budgetMs: 1_000, maxSamples: 80 }
      : { warmup: 10, minSamples: 40, budgetMs: 4_000, maxSamples: 200 },
  );
  await disconnectDb(url);
  return { stats, calls: calls.length };
}
