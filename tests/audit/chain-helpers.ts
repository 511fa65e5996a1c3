/** Writing and tampering with the audit log's hash chain in tests, as someone with the database would. */
import { appendAudit } from "../../lib/audit/log.ts";
import { contentHash, linkHash } from "../../lib/audit/chain.ts";
import type { Db } from "../../lib/db/client.ts";
import type { DatabaseProvider } from "../../lib/db/migrate.ts";

/** `count` audit rows, one after the other, as the decision paths write them. */
export async function writeRows(db: Db, count: number, reviewer = "Ada"): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await appendAudit(db, {
      reviewer,
      action: "approve",
      outcome: i % 2 ? "recorded" : "applied",
      runId: `run-${i}`,
      toolCallId: `call-${i}`,
      agentId: "refunds",
      toolName: "issueRefund",
      args: { order: `ORD-${i}`, amount: i * 10, note: "ünïcødé 🎉" },
      via: "console",
    });
  }
}

export async function rowAt(db: Db, seq: number) {
  return db.auditEvent.findUniqueOrThrow({ where: { chainSeq: seq } });
}

/** Runs `work` with the chain's trigger off, as someone who can alter the table would. */
export async function withoutChainTrigger(db: Db, kind: DatabaseProvider, work: () => Promise<void>): Promise<void> {
  if (kind === "postgres") {
    await db.$executeRawUnsafe("ALTER TABLE audit_events DISABLE TRIGGER audit_events_chain");
    try {
      await work();
    } finally {
      await db.$executeRawUnsafe("ALTER TABLE audit_events ENABLE TRIGGER audit_events_chain");
    }
    return;
  }
  const [trigger] = await db.$queryRawUnsafe<Array<{ sql: string }>>(
    "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_events_chain'",
  );
  await db.$executeRawUnsafe("DROP TRIGGER audit_events_chain");
  try {
    await work();
  } finally {
    await db.$executeRawUnsafe(trigger!.sql);
  }
}

/** Moves every row from `seq` on one place down the chain (two steps: the unique index holds at each). */
export async function shiftFrom(db: Db, seq: number): Promise<void> {
  await db.$executeRawUnsafe(`UPDATE audit_events SET chain_seq = -chain_seq - 1 WHERE chain_seq >= ${seq}`);
  await db.$executeRawUnsafe(`UPDATE audit_events SET chain_seq = -chain_seq WHERE chain_seq < 0`);
}

/**
 * A forged row at `seq`, its hashes computed as the trigger would (the algorithm is public), linked
 * to the row before it: what an intruder who knows how the chain works would insert.
 */
export async function forgeRowAt(db: Db, kind: DatabaseProvider, seq: number): Promise<number> {
  const before = await rowAt(db, seq - 1);
  const content = { ...before, reviewer: "Mallory", runId: "run-forged", toolCallId: "call-forged", at: new Date(before.at.getTime() + 1) };
  const hash = contentHash(content);
  await shiftFrom(db, seq);
  let id = 0;
  await withoutChainTrigger(db, kind, async () => {
    const row = await db.auditEvent.create({
      data: {
        at: content.at,
        reviewer: content.reviewer,
        action: content.action,
        outcome: content.outcome,
        runId: content.runId,
        toolCallId: content.toolCallId,
        agentId: content.agentId,
        toolName: content.toolName,
        args: content.args,
        via: content.via,
        contentHash: hash,
        chainSeq: seq,
        prevHash: before.hash,
        hash: linkHash(seq, before.hash!, hash),
      },
    });
    id = row.id;
  });
  return id;
}

/** Rewrites the chain's hashes from `seq` on, and its head, as an intruder who rewrites the whole tail would. */
export async function rehashFrom(db: Db, seq: number): Promise<void> {
  let prev = (await rowAt(db, seq - 1)).hash!;
  const rows = await db.auditEvent.findMany({ where: { chainSeq: { gte: seq } }, orderBy: { chainSeq: "asc" } });
  for (const row of rows) {
    const content = contentHash(row);
    const hash = linkHash(row.chainSeq!, prev, content);
    await db.auditEvent.update({ where: { id: row.id }, data: { contentHash: content, prevHash: prev, hash } });
    prev = hash;
  }
  await db.auditChain.update({ where: { id: 1 }, data: { hash: prev } });
}
