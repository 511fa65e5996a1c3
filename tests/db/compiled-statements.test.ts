/**
 * The statements the store and the queue send without the Prisma client (executeStatement,
 * queryStatement) are compiled once per SQLite connection and kept. They must store and read
 * exactly what Prisma's own adapter stores and reads (dates as its ISO text, integers as numbers),
 * and still take their turn behind an open transaction instead of joining it.
 */
import { sqltag as sql } from "@prisma/client/runtime/client";
import { compilesStatementsOnce, executeStatement, queryStatement } from "@agent-approvals/mastra-store";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/databases.ts";

const insertRun = (runId: string, at: Date) =>
  sql`INSERT INTO "workflow_snapshots" ("workflow_name", "run_id", "status", "tool_call_count", "version", "created_at", "updated_at", "snapshot")
      VALUES ('compiled-test', ${runId}, 'running', 0, 0, ${at}, ${at}, '{}')`;

describe("statements compiled once per SQLite connection", () => {
  const database = useTestDatabase("sqlite");
  const postgres = useTestDatabase("postgres");

  it("are reused on SQLite (PostgreSQL's client prepares its own)", async () => {
    expect(compilesStatementsOnce(await getDb(database.url))).toBe(true);
    expect(compilesStatementsOnce(await getDb(postgres.url))).toBe(false);
  });

  it("store dates as Prisma does, so both read and compare them alike", async () => {
    const db = await getDb(database.url);
    const at = new Date("2026-03-04T05:06:07.089Z");
    for (let i = 0; i < 3; i++) expect(await executeStatement(db, insertRun(`written-raw-${i}`, at))).toBe(1);
    await db.workflowSnapshot.create({
      data: { workflowName: "compiled-test", runId: "written-by-prisma", status: "running", snapshot: "{}", createdAt: at, updatedAt: at },
    });

    const read = await db.workflowSnapshot.findUnique({
      where: { workflowName_runId: { workflowName: "compiled-test", runId: "written-raw-0" } },
    });
    expect(read?.createdAt.toISOString()).toBe(at.toISOString());
    // The same text on both paths: an exact comparison in SQL finds all four, one millisecond later none.
    const matching = (when: Date) =>
      queryStatement<{ runId: string; createdAt: string; version: number }>(
        db,
        sql`SELECT "run_id" AS "runId", "created_at" AS "createdAt", "version" FROM "workflow_snapshots"
            WHERE "workflow_name" = 'compiled-test' AND "created_at" = ${when} ORDER BY "run_id"`,
      );
    const found = await matching(at);
    expect(found.map((row) => row.runId)).toEqual(["written-by-prisma", "written-raw-0", "written-raw-1", "written-raw-2"]);
    expect(new Set(found.map((row) => row.createdAt)).size).toBe(1);
    expect(found[0]!.version).toBe(0);
    expect(await matching(new Date(at.getTime() + 1))).toEqual([]);
  });

  it("read integers as numbers, and those past 2^53 as exact text", async () => {
    const db = await getDb(database.url);
    const [row] = await queryStatement<{ small: unknown; big: unknown; text: unknown; nothing: unknown }>(
      db,
      sql`SELECT 42 AS "small", 9007199254740993 AS "big", ${"a\u0000b"} AS "text", ${null} AS "nothing"`,
    );
    expect(row).toEqual({ small: 42, big: "9007199254740993", text: "a\u0000b", nothing: null });
  });

  it("include the Prisma client's own queries: compiled once, each call with its own arguments", async () => {
    await disconnectDb(database.url);
    const prepare = vi.spyOn(Database.prototype, "prepare");
    try {
      const db = await getDb(database.url);
      const at = new Date("2026-03-05T00:00:00.000Z");
      for (const runId of ["kept-1", "kept-2"]) {
        await db.workflowSnapshot.create({
          data: { workflowName: "compiled-test", runId, status: "running", snapshot: "{}", createdAt: at, updatedAt: at },
        });
      }
      prepare.mockClear();
      const read = async (runId: string) =>
        (
          await db.workflowSnapshot.findUnique({
            where: { workflowName_runId: { workflowName: "compiled-test", runId } },
            select: { runId: true, createdAt: true },
          })
        )?.runId ?? null;
      expect([await read("kept-1"), await read("kept-2"), await read("missing"), await read("kept-1")]).toEqual([
        "kept-1",
        "kept-2",
        null,
        "kept-1",
      ]);
      expect(prepare).toHaveBeenCalledTimes(1);
      // The same statement shared with a statement sent without the client: rows as objects for Prisma, raw rows for it.
      const [raw] = await queryStatement<{ runId: string }>(
        db,
        sql`SELECT "run_id" AS "runId" FROM "workflow_snapshots" WHERE "workflow_name" = 'compiled-test' AND "run_id" = ${"kept-2"}`,
      );
      expect(raw).toEqual({ runId: "kept-2" });
      expect(await read("kept-2")).toBe("kept-2");
      // Writes through the client are kept too, and change what the kept reads find.
      await db.workflowSnapshot.update({
        where: { workflowName_runId: { workflowName: "compiled-test", runId: "kept-1" } },
        data: { version: 1 },
      });
      await db.workflowSnapshot.update({
        where: { workflowName_runId: { workflowName: "compiled-test", runId: "kept-2" } },
        data: { version: 2 },
      });
      const versions = await db.workflowSnapshot.findMany({
        where: { runId: { in: ["kept-1", "kept-2"] } },
        select: { runId: true, version: true },
        orderBy: { runId: "asc" },
      });
      expect(versions).toEqual([
        { runId: "kept-1", version: 1 },
        { runId: "kept-2", version: 2 },
      ]);
    } finally {
      prepare.mockRestore();
    }
  });

  it("wait for an open transaction instead of joining it: its rollback does not take them along", async () => {
    const db = await getDb(database.url);
    const at = new Date();
    let written!: Promise<number>;
    await expect(
      db.$transaction(async (tx) => {
        await tx.workflowSnapshot.create({
          data: { workflowName: "compiled-test", runId: "rolled-back", status: "running", snapshot: "{}", createdAt: at, updatedAt: at },
        });
        written = executeStatement(db, insertRun("outside-the-transaction", at));
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await written).toBe(1);
    const runIds = (await db.workflowSnapshot.findMany({ where: { runId: { in: ["rolled-back", "outside-the-transaction"] } } })).map(
      (row) => row.runId,
    );
    expect(runIds).toEqual(["outside-the-transaction"]);
  });
});
