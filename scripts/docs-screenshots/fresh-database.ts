/**
 * The first step of `npm run docs:screenshots`: deletes the screenshots' own SQLite files (the
 * console's and Mastra's sibling store), so that `npm run db:deploy` and `npm run seed --
 * --demo-accounts` after it fill a fresh database exactly as `npm run demo` fills data/console.db.
 * Never DATABASE_URL's file: that may be the console somebody uses.
 */
import { rm } from "node:fs/promises";
import { SCREENSHOTS_DATABASE_FILE } from "./settings.ts";

const stem = SCREENSHOTS_DATABASE_FILE.replace(/\.db$/, "");
for (const file of [`${stem}.db`, `${stem}.mastra.db`]) {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${file}${suffix}`, { force: true });
}
console.log(`Deleted ${stem}.db and ${stem}.mastra.db: the demo is seeded afresh.`);
