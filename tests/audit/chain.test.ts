/**
 * The audit log's hash chain on SQLite and PostgreSQL: every writer's rows join it in their own
 * transaction, verify recomputes every hash, and an edited, a deleted and an inserted row are each
 * found and named; so are a truncated tail, a row outside the chain and a rewrite a checkpoint saw.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDb, disconnectDb, getDb, type Db } from "../../lib/db/client.ts";
import { verifyAuditChain } from "../../lib/audit/verify.ts";
import { checkpointIfDue } from "../../lib/audit/checkpoint.ts";
import { contentHash, GENESIS_HASH, linkHash } from "../../lib/audit/chain.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { checkpointInput } from "../../lib/actions/audit-operations.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { forgeRowAt, rehashFrom, rowAt, withoutChainTrigger, writeRows } from "./chain-helpers.ts";

describe.each(["sqlite", "postgres"] as const)("audit hash chain on %s", (kind) => {
  const opened: TestDatabase[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) {
      await disconnectDb(database.url);
      await database.drop();
    }
  });
  async function chained(rows: number): Promise<Db> {
    const database = await createTestDatabase(kind);
    opened.push(database);
    const db = await getDb(database.url);
    await writeRows(db, rows);
    return db;
  }

  it("chains every row a real decision writes, and verify recomputes each hash", async () => {
    const database = await createTestDatabase(kind);
    opened.push(database);
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8101"));
    await decide({ action: "approve", ...run.ref }, { reviewer: "Ada", databaseUrl: database.url });
    await decide({ action: "decline", ...run.ref }, { reviewer: "Grace", databaseUrl: database.url }).catch(() => undefined);
    const db = await getDb(database.url);
    const rows = await db.auditEvent.findMany({ orderBy: { chainSeq: "asc" } });
    // recorded and applied (a raw statement transaction or one CTE statement), then the conflict (Prisma).
    expect(rows.map((row) => [row.chainSeq, row.outcome])).toEqual([
      [1, "recorded"],
      [2, "applied"],
      [3, "conflict"],
    ]);
    let prev = GENESIS_HASH;
    for (const row of rows) {
      expect(row.prevHash).toBe(prev);
      expect(row.contentHash).toBe(contentHash(row));
      expect(row.hash).toBe(linkHash(row.chainSeq!, prev, row.contentHash!));
      prev = row.hash!;
    }
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: true, rows: 3, head: { seq: 3, hash: prev }, problem: null });
  });

  it("names a row whose content was edited", async () => {
    const db = await chained(10);
    const edited = await rowAt(db, 6);
    await db.$executeRawUnsafe(`UPDATE audit_events SET reviewer = 'Mallory' WHERE id = ${edited.id}`);
    const result = await verifyAuditChain(db);
    expect(result.ok).toBe(false);
    expect(result.problem).toMatchObject({ kind: "changed", id: edited.id, seq: 6 });
    expect(result.rows).toBe(5);
  });

  it("names a row whose stored hash was edited to hide a change of the one before it", async () => {
    const db = await chained(6);
    const row = await rowAt(db, 3);
    await db.$executeRawUnsafe(`UPDATE audit_events SET hash = '${"f".repeat(64)}' WHERE id = ${row.id}`);
    expect((await verifyAuditChain(db)).problem).toMatchObject({ kind: "changed", id: row.id, seq: 3 });
  });

  it("names the place of a deleted row", async () => {
    const db = await chained(10);
    const deleted = await rowAt(db, 4);
    const after = await rowAt(db, 5);
    await db.$executeRawUnsafe(`DELETE FROM audit_events WHERE id = ${deleted.id}`);
    const result = await verifyAuditChain(db);
    expect(result.problem).toMatchObject({ kind: "deleted", seq: 4, id: after.id });
  });

  it("finds rows deleted from the end, which leave an unbroken chain behind", async () => {
    const db = await chained(8);
    await db.$executeRawUnsafe(`DELETE FROM audit_events WHERE chain_seq >= 7`);
    expect((await verifyAuditChain(db)).problem).toMatchObject({ kind: "deleted", seq: 7, id: null });
  });

  it("names a row inserted in the middle with correctly computed hashes", async () => {
    const db = await chained(10);
    const forged = await forgeRowAt(db, kind, 5);
    expect((await rowAt(db, 5)).reviewer).toBe("Mallory");
    const result = await verifyAuditChain(db);
    expect(result.problem).toMatchObject({ kind: "inserted", id: forged, seq: 5 });
  });

  it("names a row written outside the chain (its trigger turned off)", async () => {
    const db = await chained(3);
    let id = 0;
    await withoutChainTrigger(db, kind, async () => {
      const row = await db.auditEvent.create({
        data: {
          at: new Date(),
          reviewer: "Mallory",
          action: "approve",
          outcome: "recorded",
          runId: "r",
          toolCallId: "c",
          contentHash: "x",
        },
      });
      id = row.id;
    });
    expect((await verifyAuditChain(db)).problem).toMatchObject({ kind: "inserted", id, seq: null });
  });

  it("refuses a row without its content hash: nothing joins the log unchained", async () => {
    const db = await chained(1);
    await expect(
      db.auditEvent.create({
        data: { at: new Date(), reviewer: "x", action: "approve", outcome: "recorded", runId: "r", toolCallId: "c" },
      }),
      // Prisma words SQLite's RAISE(ABORT) as a constraint violation; PostgreSQL's message comes through.
    ).rejects.toThrow(kind === "postgres" ? /content_hash is required/ : /constraint/);
    expect(await db.auditEvent.count()).toBe(1);
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("a checkpoint sent as an event proves a rewrite that recomputed every hash after it", async () => {
    const db = await chained(8);
    const checkpoint = await checkpointIfDue(db, 60_000);
    expect(checkpoint).toMatchObject({ seq: 8, hash: (await rowAt(db, 8)).hash });
    const event = await db.outboxEvent.findFirstOrThrow({ where: { type: "audit.checkpoint" } });
    expect(JSON.parse(event.payload)).toMatchObject({ type: "audit.checkpoint", data: { seq: 8, hash: checkpoint!.hash } });
    // Not again within the interval, nor for a head that did not move.
    expect(await checkpointIfDue(db, 60_000)).toBeNull();
    expect(await checkpointIfDue(db, 1, new Date(Date.now() + 120_000))).toBeNull();
    expect((await verifyAuditChain(db, { checkpoint: checkpoint! })).ok).toBe(true);

    const edited = await rowAt(db, 3);
    await db.$executeRawUnsafe(`UPDATE audit_events SET reviewer = 'Mallory' WHERE id = ${edited.id}`);
    await rehashFrom(db, 3);
    expect((await verifyAuditChain(db)).ok).toBe(true); // the chain alone cannot tell
    const result = await verifyAuditChain(db, { checkpoint: checkpoint! });
    expect(result.problem).toMatchObject({ kind: "rewritten", seq: 8 });
  });

  it.runIf(kind === "postgres")("writers on two servers at once form one gapless chain", async () => {
    const database = await createTestDatabase(kind);
    opened.push(database);
    const [a, b] = [await createDb(database.url), await createDb(database.url)];
    try {
      await Promise.all([
        ...Array.from({ length: 8 }, () => writeRows(a, 15, "server-a")),
        ...Array.from({ length: 8 }, () => writeRows(b, 15, "server-b")),
      ]);
      const result = await verifyAuditChain(a);
      expect(result).toMatchObject({ ok: true, rows: 240, head: { seq: 240 } });
      expect(await a.auditEvent.count({ where: { chainSeq: { not: null } } })).toBe(240);
    } finally {
      await a.$disconnect();
      await b.$disconnect();
    }
  });
});

describe("GET /api/admin/audit/verify's input", () => {
  it("takes a checkpoint as a place and 64 hex digits together, and refuses anything else", () => {
    const hash = "a".repeat(64);
    expect(checkpointInput.safeParse({}).success).toBe(true);
    expect(checkpointInput.safeParse({ checkpointSeq: "12", checkpointHash: hash }).data).toEqual({
      checkpointSeq: 12,
      checkpointHash: hash,
    });
    for (const bad of [
      { checkpointSeq: "12" },
      { checkpointHash: hash },
      { checkpointSeq: "0", checkpointHash: hash },
      { checkpointSeq: "1.5", checkpointHash: hash },
      { checkpointSeq: "99999999999", checkpointHash: hash },
      { checkpointSeq: "12", checkpointHash: hash.toUpperCase() },
      { checkpointSeq: "12", checkpointHash: `${hash}\u0000` },
      { checkpointSeq: "12", checkpointHash: hash, extra: "1" },
    ])
      expect(checkpointInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
