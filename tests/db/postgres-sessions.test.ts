/**
 * Every PostgreSQL connection the console opens runs without JIT (packages/mastra-store/src/database.ts):
 * at a million waiting runs the queue's groupings pass jit_above_cost and JIT spent more time
 * compiling them than they take to run. Checked on each of several connections the pool opens at
 * once, and by a plan that would be compiled if JIT were on (jit_above_cost = 0 in its transaction).
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe("PostgreSQL sessions", () => {
  const database = useTestDatabase("postgres");

  it("turn JIT off on every connection of the pool", async () => {
    const db = await getDb(database.url);
    // Held at once (pg_sleep), so the pool opens a connection for each.
    const sessions = await Promise.all(
      Array.from({ length: 4 }, () =>
        db.$queryRawUnsafe<Array<{ jit: string; pid: number }>>(
          `SELECT current_setting('jit') AS jit, pg_backend_pid() AS pid, pg_sleep(0.2)::text`,
        ),
      ),
    );
    expect(new Set(sessions.map(([row]) => row!.pid)).size).toBe(4);
    expect(sessions.map(([row]) => row!.jit)).toEqual(["off", "off", "off", "off"]);
  });

  it("compile nothing even where every plan passes the JIT threshold", async () => {
    const db = await getDb(database.url);
    const plan = await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL jit_above_cost = 0");
      const [row] = await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": unknown }>>(
        `EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM workflow_snapshots WHERE status = 'suspended'`,
      );
      return JSON.stringify(row!["QUERY PLAN"]);
    });
    expect(plan).toContain('"Plan"');
    expect(plan).not.toContain('"JIT"');
  });
});
