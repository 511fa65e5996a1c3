/**
 * What a decision retries (lib/decisions/ledger-statements.ts isRetryableConflict): a real deadlock
 * between two Prisma transactions on PostgreSQL, its victim rolled back whole, is recognised; a
 * unique violation and other errors are not (those have answers of their own).
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { isRetryableConflict } from "../../lib/decisions/ledger-statements.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe("conflicts worth running again, on postgres", () => {
  const database = useTestDatabase("postgres");

  it("recognises the victim of a real deadlock, and nothing else", async () => {
    const db = await getDb(database.url);
    await db.insightTarget.createMany({
      data: [
        { risk: "deadlock-a", minutes: 1 },
        { risk: "deadlock-b", minutes: 1 },
      ],
    });
    let bothHoldOne: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      let count = 0;
      bothHoldOne = () => void (++count === 2 && resolve());
    });
    // Each takes one row, waits until the other holds its own, then asks for the other's: one is the victim.
    const crossing = (first: string, second: string) =>
      db.$transaction(
        async (tx) => {
          await tx.insightTarget.update({ where: { risk: first }, data: { minutes: { increment: 1 } } });
          bothHoldOne();
          await held;
          await tx.insightTarget.update({ where: { risk: second }, data: { minutes: { increment: 1 } } });
        },
        { timeout: 30_000 },
      );
    const results = await Promise.allSettled([crossing("deadlock-a", "deadlock-b"), crossing("deadlock-b", "deadlock-a")]);
    const failed = results.filter((result) => result.status === "rejected");
    expect(failed).toHaveLength(1);
    expect(isRetryableConflict(failed[0]!.reason), String(failed[0]!.reason)).toBe(true);
    // Rolled back whole: only the winner's two increments.
    const rows = await db.insightTarget.findMany({ where: { risk: { startsWith: "deadlock-" } } });
    expect(rows.map((row) => row.minutes).sort()).toEqual([2, 2]);

    const duplicate = await db.insightTarget.create({ data: { risk: "deadlock-a", minutes: 1 } }).catch((error: unknown) => error);
    expect((duplicate as { code?: string }).code).toBe("P2002");
    expect(isRetryableConflict(duplicate)).toBe(false);
    expect(isRetryableConflict(new Error("40P01"))).toBe(false);
    expect(isRetryableConflict(undefined)).toBe(false);
  });
});
