/**
 * A decision end to end: lib/decisions/decide.ts `decide()` (checks, record, audit, lease, the agent,
 * reading the stream to its end, final state) against a bare `agent.approveToolCall()` with its
 * stream read to the end — same agent, same store, same kind of run; measured alternately.
 * usage: decision.ts <runs per side> [sqlite|pg]   (prints JSON; SQLite unless told, as `npm run bench` runs it)
 */
import { disconnectDb } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { getMastra } from "../lib/mastra/index.ts";
import { decide } from "../lib/decisions/decide.ts";
import { readAnswer } from "../lib/mastra/demo/run-until-waiting.ts";
import { suspendRefundRun } from "./refund-run.ts";
import { withScratchDatabase } from "./scratch-database.ts";
import { stats } from "./timing.ts";

const n = Number(process.argv[2] ?? 20);
const store = process.argv[3] === "pg" ? "pg" : "sqlite";
await withScratchDatabase(store, "decision", async (url) => {
  await deployMigrations(url);
  const mastra = await getMastra(url);
  const agent = mastra.getAgent("refunds");

  let seq = 0;
  const suspend = () => suspendRefundRun(agent, ++seq, "bench");

  async function bare(): Promise<number> {
    const call = await suspend();
    const t = performance.now();
    await readAnswer(await agent.approveToolCall(call));
    return performance.now() - t;
  }

  async function ours(): Promise<number> {
    const call = await suspend();
    const t = performance.now();
    await decide({ action: "approve", ...call }, { reviewer: "bench", databaseUrl: url });
    return performance.now() - t;
  }

  for (let i = 0; i < 3; i++) (await bare(), await ours()); // warm-up
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2) (b.push(await bare()), a.push(await ours()));
    else (a.push(await ours()), b.push(await bare()));
  }
  await disconnectDb(url);
  const decideStats = stats(a);
  const bareStats = stats(b);
  console.log(
    JSON.stringify({
      store,
      n,
      decide: decideStats,
      bare: bareStats,
      ratio: decideStats.median / bareStats.median,
      overheadMs: decideStats.median - bareStats.median,
    }),
  );
});
process.exit(0);
