/**
 * The SQLite paths of the store and the console with the garbage collector forced all the time, in a
 * process of its own (`node --expose-gc --import tsx`): better-sqlite3 12 aborted the process on
 * Node >= 24.19 when a collected Statement was finalised ("Assertion failed: (env) != nullptr").
 * That happens when V8 finalises from a task of its own, between event-loop turns, so collections
 * are asked for asynchronously (and provoked by garbage) while the loop keeps turning; a synchronous
 * `gc()` alone does not reproduce it. Prints "ok" and exits on its own, so finalisers also run at
 * the environment's teardown. gc-driver-child.mjs does the same with the driver alone: loaded
 * beside Mastra and Prisma, better-sqlite3 12 happened not to abort here, alone it did every time.
 * Usage: gc-child.ts <sqlite databaseUrl>
 */
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { createTestMastra, readAnswer, suspendRun } from "./agents.ts";

type Collect = (options?: { type?: "major" | "minor"; execution?: "async" | "sync" }) => void;
const collect = (globalThis as { gc?: Collect }).gc;
if (!collect) throw new Error("Run with --expose-gc");
const gc = () => collect({ type: "major", execution: "async" });
const [databaseUrl] = process.argv.slice(2) as [string];
/** Garbage right after the statements, so V8 collects on its own, then a turn of the loop for its finalisers. */
let garbage: unknown[] = [];
const churn = () => {
  // Kept until the next churn, so the allocation cannot be optimised away.
  garbage = [];
  for (let k = 0; k < 20_000; k++) garbage.push({ k });
  return new Promise((resolve) => setTimeout(resolve, 1));
};

const db = await getDb(databaseUrl);
for (let round = 0; round < 3; round++) {
  const mastra = await createTestMastra(databaseUrl);
  const memory = { thread: `gc-thread-${round}`, resource: `gc-resource-${round}` };
  const call = await suspendRun(mastra, "teller", `transfer ${10 + round} from acct_a to acct_b`, memory);
  for (let i = 0; i < 20; i++) {
    await listSuspendedRuns({ resourceId: memory.resource }, databaseUrl);
    await db.workflowSnapshot.count({ where: { status: "suspended" } });
    await db.$queryRawUnsafe(`SELECT ${i} AS n`);
    gc();
    await churn();
  }
  await readAnswer(await mastra.getAgent("teller").approveToolCall({ runId: call.runId, toolCallId: call.toolCallId }));
  gc();
}
const left = await listSuspendedRuns({}, databaseUrl);
await disconnectDb(databaseUrl);
gc();
gc();
console.log(`ok ${left.total} ${garbage.length}`);
