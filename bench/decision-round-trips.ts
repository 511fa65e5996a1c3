/**
 * Round trips to PostgreSQL per decision: every query the pg driver sends (Prisma's adapter and the
 * store both go through pg.Client), counted for a bare `agent.approveToolCall()` and for `decide()`,
 * each on a run of its own; the difference is what the console's decision adds. With `--log` it
 * prints decide()'s statements in order, to see which step sends which.
 * usage: decision-round-trips.ts [runs per side] [--log]   (needs POSTGRES_URL; prints JSON)
 */
import pg from "pg";
import { disconnectDb } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { getMastra } from "../lib/mastra/index.ts";
import { decide } from "../lib/decisions/decide.ts";
import { readAnswer } from "../lib/mastra/demo/run-until-waiting.ts";
import { suspendRefundRun } from "./refund-run.ts";
import { withScratchDatabase } from "./scratch-database.ts";

const n = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 5);
const log = process.argv.includes("--log");
let sent: string[] = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const config = args[0] as string | { text: string };
  sent.push((typeof config === "string" ? config : config.text).replace(/\s+/g, " ").slice(0, 160));
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

await withScratchDatabase("pg", "roundtrips", async (url) => {
  await deployMigrations(url);
  const mastra = await getMastra(url);
  const agent = mastra.getAgent("refunds");
  let seq = 0;
  const suspend = () => suspendRefundRun(agent, ++seq, "rt");
  const counted = async (work: () => Promise<unknown>) => {
    sent = [];
    await work();
    return [...sent];
  };
  for (let i = 0; i < 2; i++) {
    const call = await suspend();
    await readAnswer(await agent.approveToolCall(call));
    await decide({ action: "approve", ...(await suspend()) }, { reviewer: "bench", databaseUrl: url });
  }
  const bare: number[] = [];
  const ours: number[] = [];
  let last: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = await suspend();
    bare.push((await counted(async () => readAnswer(await agent.approveToolCall(a)))).length);
    const b = await suspend();
    last = await counted(() => decide({ action: "approve", ...b }, { reviewer: "bench", databaseUrl: url }));
    ours.push(last.length);
  }
  if (log) for (const [i, text] of last.entries()) console.error(String(i + 1).padStart(3), text);
  await disconnectDb(url);
  console.log(JSON.stringify({ n, bare, decide: ours, added: ours.map((count, i) => count - bare[i]!) }));
});
process.exit(0);
