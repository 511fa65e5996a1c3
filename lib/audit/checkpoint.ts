/**
 * Checkpoints of the audit log: every AUDIT_CHECKPOINT_MINUTES, the chain's head (its last place and
 * hash) goes out as an `audit.checkpoint` event through the outbox (webhooks deliver it). A receiver
 * that keeps them holds proof, outside the database, of what the log was: verify.ts checks the log
 * against one (`npm run audit:verify -- --checkpoint <seq>:<hash>`).
 */
import type { Db } from "../db/client.ts";
import { emitEvent, type EventWriter } from "../events/outbox.ts";
import { numericSetting } from "../numeric-settings.mjs";

export interface CheckpointData {
  seq: number;
  hash: string;
  at: string;
  /** When the chain began, and how many rows came before it (not covered by hashes). */
  chainStartedAt: string;
}

const nextLook = new WeakMap<Db, number>();

export function checkpointEveryMs(): number {
  return numericSetting("AUDIT_CHECKPOINT_MINUTES") * 60_000;
}

/**
 * Announces the head unless a checkpoint went out less than `everyMs` ago or the head has not moved
 * since the last one. Several servers may check at once: the head row is read in the transaction
 * that writes the event, so at worst two announce the same head.
 */
export async function checkpointIfDue(
  db: Db,
  everyMs: number = checkpointEveryMs(),
  now: Date = new Date(),
): Promise<CheckpointData | null> {
  if (everyMs <= 0 || now.getTime() < (nextLook.get(db) ?? 0)) return null;
  // At most once a minute per process and database: finding the last checkpoint reads the outbox backwards.
  nextLook.set(db, now.getTime() + Math.min(everyMs, 60_000));
  return db.$transaction(async (tx) => {
    const last = await tx.outboxEvent.findFirst({ where: { type: "audit.checkpoint" }, orderBy: { createdAt: "desc" } });
    if (last && now.getTime() - last.createdAt.getTime() < everyMs) return null;
    const head = await tx.auditChain.findUnique({ where: { id: 1 } });
    if (!head || head.seq === 0) return null;
    if (last && (JSON.parse(last.payload) as { data?: { seq?: number } }).data?.seq === head.seq) return null;
    const data: CheckpointData = { seq: head.seq, hash: head.hash, at: now.toISOString(), chainStartedAt: head.startedAt.toISOString() };
    await emitEvent(tx as unknown as EventWriter, "audit.checkpoint", { ...data }, now);
    return data;
  });
}
