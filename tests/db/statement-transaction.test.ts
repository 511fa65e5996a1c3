/**
 * statementTransaction (@agent-approvals/mastra-store): a decision's writes as raw statements in one
 * transaction. All or nothing on both databases, and on SQLite, where every statement of a process
 * shares one connection, a statement sent from outside while it is open waits for it instead of
 * joining it (and being rolled back with it).
 */
import { statementTransaction } from "@agent-approvals/mastra-store";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/databases.ts";

const event = (id: string) =>
  sql`INSERT INTO outbox_events (id, type, payload, created_at) VALUES (${id}, ${"call.decided"}, ${"{}"}, ${new Date()})`;

describe.each(["sqlite", "postgres"] as const)("statementTransaction on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("commits every statement, and its reads see its own writes", async () => {
    const db = await getDb(database.url);
    const seen = await statementTransaction(db, async (tx) => {
      expect(await tx.execute(event("evt_a"))).toBe(1);
      expect(await tx.execute(event("evt_b"))).toBe(1);
      return tx.query<{ id: string }>(sql`SELECT id FROM outbox_events WHERE id IN (${"evt_a"}, ${"evt_b"}) ORDER BY id`);
    });
    expect(seen.map((row) => row.id)).toEqual(["evt_a", "evt_b"]);
    expect(await db.outboxEvent.count({ where: { id: { in: ["evt_a", "evt_b"] } } })).toBe(2);
  });

  it("writes nothing when the work throws, and rethrows", async () => {
    const db = await getDb(database.url);
    await expect(
      statementTransaction(db, async (tx) => {
        await tx.execute(event("evt_c"));
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    expect(await db.outboxEvent.count({ where: { id: "evt_c" } })).toBe(0);
  });

  it("writes nothing when one of its statements fails", async () => {
    const db = await getDb(database.url);
    await expect(
      statementTransaction(db, async (tx) => {
        await tx.execute(event("evt_d"));
        await tx.execute(event("evt_d")); // the same primary key
      }),
    ).rejects.toThrow();
    expect(await db.outboxEvent.count({ where: { id: "evt_d" } })).toBe(0);
  });

  it("keeps a statement sent from outside while it is open out of it: rolled back, that statement stays", async () => {
    const db = await getDb(database.url);
    let outside: Promise<unknown> | undefined;
    await expect(
      statementTransaction(db, async (tx) => {
        await tx.execute(event("evt_e"));
        outside = db.outboxEvent.create({ data: { id: "evt_f", type: "call.decided", payload: "{}", createdAt: new Date() } });
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    await outside;
    expect((await db.outboxEvent.findMany({ where: { id: { in: ["evt_e", "evt_f"] } } })).map((row) => row.id)).toEqual(["evt_f"]);
  });
});
