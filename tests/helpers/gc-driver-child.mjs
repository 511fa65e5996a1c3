/**
 * better-sqlite3 alone, as the store's migrator and SQLite adapter use it: statements prepared and
 * dropped while garbage makes V8 collect and finalise between event-loop turns. On Node >= 24.19
 * with better-sqlite3 12 this aborted within a second ("Assertion failed: (env) != nullptr").
 * Usage: node gc-driver-child.mjs <sqlite file>
 */
import Database from "better-sqlite3";

const db = new Database(process.argv[2]);
let garbage = [];
for (let i = 0; i < 3_000; i++) {
  db.prepare("SELECT count(*) AS n FROM workflow_snapshots WHERE status = ?").get("suspended");
  if (i % 50 === 0) {
    garbage = [];
    for (let k = 0; k < 20_000; k++) garbage.push({ k });
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
db.close();
console.log(`ok ${garbage.length}`);
