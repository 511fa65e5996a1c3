/**
 * The live queue's change feed (table queue_changes, written only by triggers: migration
 * live_queue_feed's and prisma/<provider>/derived/queue_changes.sql's): reading it from a position or
 * by transaction, its head, and pruning it. Positions only grow; a stream's event id is one
 * (lib/live/stream.ts).
 */
import type { Db } from "../db/client.ts";
import { withViewers } from "./presence.ts";
import type { QueueChangeDto } from "./types.ts";

/** At most this many changes are read (and replayed to a stream) at once; more: the reader refetches. */
export const FEED_READ_LIMIT = 1_000;

const SELECTED = { position: true, kind: true, runId: true, toolCallId: true, agentId: true, threadId: true, resourceId: true } as const;

type Row = {
  position: bigint;
  kind: string;
  runId: string | null;
  toolCallId: string | null;
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
};

function dtoOf(row: Row): QueueChangeDto {
  return { ...row, position: Number(row.position) };
}

/** The newest position, 0 for an empty feed: the primary key's last entry. */
export async function feedHead(db: Db): Promise<number> {
  const row = await db.queueChange.findFirst({ orderBy: { position: "desc" }, select: { position: true } });
  return row ? Number(row.position) : 0;
}

/** The oldest position still kept, or null for an empty feed. */
export async function feedTail(db: Db): Promise<number | null> {
  const row = await db.queueChange.findFirst({ orderBy: { position: "asc" }, select: { position: true } });
  return row ? Number(row.position) : null;
}

/** Changes after `position`, oldest first, at most `limit`. */
export async function changesAfter(db: Db, position: number, limit = FEED_READ_LIMIT): Promise<QueueChangeDto[]> {
  const rows = await db.queueChange.findMany({
    where: { position: { gt: BigInt(position) } },
    orderBy: { position: "asc" },
    take: limit,
    select: SELECTED,
  });
  return withViewers(db, rows.map(dtoOf));
}

/** The changes written by these (committed) PostgreSQL transactions, as notified on channel queue_changes. */
export async function changesOfTransactions(db: Db, transactions: bigint[]): Promise<QueueChangeDto[]> {
  if (transactions.length === 0) return [];
  const rows = await db.queueChange.findMany({ where: { tx: { in: transactions } }, orderBy: { position: "asc" }, select: SELECTED });
  return withViewers(db, rows.map(dtoOf));
}

/**
 * Deletes changes older than `keepMinutes` and all but the newest `keepRows`, never the newest row
 * (SQLite's triggers number a change one past the highest kept, so an empty feed would start over).
 * Returns how many went.
 */
export async function pruneFeed(
  db: Db,
  { keepMinutes, keepRows, now = new Date() }: { keepMinutes: number; keepRows: number; now?: Date },
) {
  const head = await feedHead(db);
  if (head === 0) return 0;
  const below = BigInt(Math.max(0, head - keepRows + 1));
  const { count } = await db.queueChange.deleteMany({
    where: {
      position: { lt: BigInt(head) },
      OR: [{ position: { lt: below } }, { at: { lt: new Date(now.getTime() - keepMinutes * 60_000) } }],
    },
  });
  return count;
}
