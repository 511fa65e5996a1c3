/**
 * Child of bench/run.ts: times the queue's pages of threads on one store (bench/threads.ts) in a
 * process of its own, as a console server would serve them, rather than in the run's process,
 * which holds hundreds of MB of backlog generation and Mastra results by then: its garbage
 * collections landed inside the timed pages (p95 3x the median). Answers with one JSON line.
 * Usage: tsx bench/threads-child.ts <database url> [--quick]
 */
import { disconnectDb } from "../lib/db/client.ts";
import { measureThreadPages } from "./threads.ts";

const [url, mode] = process.argv.slice(2);
if (!url) throw new Error("usage: threads-child.ts <database url> [--quick]");
const results = await measureThreadPages(url, mode === "--quick");
await disconnectDb(url);
console.log(JSON.stringify(results));
process.exit(0);
