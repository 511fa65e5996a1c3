/**
 * SQLite statements run synchronously (better-sqlite3) and Prisma goes on in microtasks, so a busy
 * process could run all its queued statements as one unbroken microtask chain: no connection
 * accepted, no request read, no timer fired until the queue is empty (under 200 clients some were
 * never served for 30 s; bench/load.ts). The adapter hands each turn over through the event loop,
 * so other work gets in between statements. Asserted by order, not by time.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe("SQLite statements under a burst", () => {
  const database = useTestDatabase("sqlite");

  it("let the event loop turn while 200 queued statements run", async () => {
    const db = await getDb(database.url);
    await db.workflowSnapshot.count(); // the client is open and warm
    let finished = 0;
    const burst = Array.from({ length: 200 }, () => db.workflowSnapshot.count().then(() => finished++));
    const finishedWhenTheLoopTurned = await new Promise<number>((resolve) => setImmediate(() => resolve(finished)));
    await Promise.all(burst);
    expect(finished).toBe(200);
    expect(finishedWhenTheLoopTurned).toBeLessThan(20);
  });
});
