/**
 * Child of bench/run.ts: times the queue's pages of threads on one store (bench/threads.ts) in a
 * process of its own, as a console server would serve them, rather than in the run's process,
 * which holds hundreds of MB of backlog generation and Mastra results by then: its garbage
 * collections landed inside the timed pages (p95 3x the median). Answers with one JSON line: each
 * store's results under its URL.
 * Usage: tsx bench/threads-child.ts <database url>… [--quick]
 */
import { disconnectDb } from "../lib/db/client.ts";
import { eachStore, storeArgs } from "./children.ts";
import { measureThreadPages } from "./threads.ts";

const { urls, quick } = storeArgs("threads-child.ts");
const results = await eachStore(urls, async (url) => {
  const measured = await measureThreadPages(url, quick);
  await disconnectDb(url);
  return measured;
});
console.log(JSON.stringify(results));
process.exit(0);
