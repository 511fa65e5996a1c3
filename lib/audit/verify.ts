/**
 * Walks the audit log's hash chain (chain.ts) and names the first row that was changed, deleted or
 * inserted out of order. It recomputes every hash from the stored columns alone, whatever wrote
 * them, and reads the chain in keyset pages of chain_seq: memory stays the same however long the log.
 */
import { raw, sqltag as sql } from "@prisma/client/runtime/client";
import type { Db } from "../db/client.ts";
import { CHAINED_COLUMNS, contentHash, GENESIS_HASH, linkHash, type ChainedContent } from "./chain.ts";

export type ChainProblemKind =
  /** The row's content, or its stored hashes, no longer match what was written. */
  | "changed"
  /** A row of the chain is missing (its place is named; the row after it is given). */
  | "deleted"
  /** A row was not in the chain when the row after it was written, or sits outside the chain. */
  | "inserted"
  /** The chain at a saved checkpoint's place does not end in the checkpoint's hash. */
  | "rewritten";

export interface ChainProblem {
  kind: ChainProblemKind;
  /** The row named: the changed or inserted one, or for a deletion the first row after the gap (null when the gap is at the end). */
  id: number | null;
  /** Its place in the chain (for a deletion: the missing place). */
  seq: number | null;
  message: string;
}

export interface ChainVerification {
  ok: boolean;
  /** Rows of the chain checked. */
  rows: number;
  /** The head: the last row's place and hash (the database's record of it). */
  head: { seq: number; hash: string };
  /** When the chain began (the migration), and how many rows were written before it (not covered by hashes). */
  startedAt: string;
  legacyRows: number;
  problem: ChainProblem | null;
  checkedAt: string;
}

/** A checkpoint saved outside the database (an `audit.checkpoint` event): the chain's hash at `seq`. */
export interface Checkpoint {
  seq: number;
  hash: string;
}

const PAGE = 5_000;

type ChainRow = ChainedContent & { id: number; chainSeq: number; contentHash: string | null; prevHash: string | null; hash: string | null };

/** The columns a page reads: the chained ones (under their field names) and the chain's own. */
const SELECTED = [
  ...Object.entries(CHAINED_COLUMNS).map(([field, column]) => `${column} AS "${field}"`),
  `id`,
  `chain_seq AS "chainSeq"`,
  `content_hash AS "contentHash"`,
  `prev_hash AS "prevHash"`,
  `hash`,
].join(", ");

/**
 * A page of the chain from place `from` on. Raw SQL: a million rows through the query builder's
 * per-row work took twice as long (bench/audit-chain.ts). Values come back as each driver reads
 * them: times as Date or text, integers as number or bigint; `normalized` evens them out.
 */
async function chainPage(db: Db, from: number): Promise<ChainRow[]> {
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>(
    sql`SELECT ${raw(SELECTED)} FROM audit_events WHERE chain_seq >= ${from} ORDER BY chain_seq LIMIT ${PAGE}`,
  );
  return rows.map(normalized);
}

function normalized(row: Record<string, unknown>): ChainRow {
  const at = row.at;
  return {
    ...(row as unknown as ChainRow),
    at: at instanceof Date ? at : new Date(String(at)),
    id: Number(row.id),
    chainSeq: Number(row.chainSeq),
  };
}

/** The chain's head as the database records it, without walking the chain: what /history shows before "Verify now". */
export async function auditChainHead(db: Db): Promise<{ seq: number; hash: string } | null> {
  const chain = await db.auditChain.findUnique({ where: { id: 1 }, select: { seq: true, hash: true } });
  return chain && { seq: chain.seq, hash: chain.hash };
}

export async function verifyAuditChain(db: Db, options: { checkpoint?: Checkpoint; onPage?: (rows: number) => void } = {}) {
  const chain = await db.auditChain.findUnique({ where: { id: 1 } });
  if (!chain) throw new Error("The audit chain has no head: migration audit_chain was not applied.");
  const result = (problem: ChainProblem | null, rows: number): ChainVerification => ({
    ok: problem === null,
    rows,
    head: { seq: chain.seq, hash: chain.hash },
    startedAt: chain.startedAt.toISOString(),
    legacyRows: chain.legacyRows,
    problem,
    checkedAt: new Date().toISOString(),
  });

  // The hashes of the last two rows walked: a row whose predecessor's hash is the one before that
  // was written when the row now between them was not there.
  let prevHash = GENESIS_HASH;
  let beforePrevHash: string | null = null;
  let prev: ChainRow | null = null;
  let expected = 1;
  let rows = 0;
  const { checkpoint } = options;
  for (;;) {
    const page = await chainPage(db, expected);
    for (const row of page) {
      const problem = checkRow(row, expected, prev, prevHash, beforePrevHash);
      if (problem) return result(problem, rows);
      if (checkpoint && row.chainSeq === checkpoint.seq && row.hash !== checkpoint.hash) {
        return result(rewritten(row, checkpoint), rows);
      }
      rows++;
      beforePrevHash = prevHash;
      prevHash = row.hash!;
      prev = row;
      expected = row.chainSeq + 1;
    }
    options.onPage?.(rows);
    if (page.length < PAGE) break;
  }
  const last = expected - 1;
  if (checkpoint && checkpoint.seq > last) {
    return result(
      {
        kind: "deleted",
        id: null,
        seq: last + 1,
        message: `The chain ends at ${last}, before the checkpoint's place ${checkpoint.seq}: rows at its end were deleted.`,
      },
      rows,
    );
  }
  if (chain.seq > last) {
    return result(
      {
        kind: "deleted",
        id: null,
        seq: last + 1,
        message: `The chain's head is at ${chain.seq} but its last row is at ${last}: the rows after it were deleted.`,
      },
      rows,
    );
  }
  if (chain.seq !== last || chain.hash !== prevHash) {
    return result(
      {
        kind: "changed",
        id: prev?.id ?? null,
        seq: last,
        message: `The chain's head (${chain.seq}, ${chain.hash.slice(0, 12)}…) does not match its last row (${last}).`,
      },
      rows,
    );
  }
  return result(await checkLegacy(db, chain), rows);
}

function checkRow(
  row: ChainRow,
  expected: number,
  prev: ChainRow | null,
  prevHash: string,
  beforePrevHash: string | null,
): ChainProblem | null {
  const at = { id: row.id, seq: row.chainSeq };
  if (row.contentHash !== contentHash(row)) {
    return {
      kind: "changed",
      ...at,
      message: `Row ${row.id} (chain ${row.chainSeq}) was changed after it was written: its content no longer has its hash.`,
    };
  }
  if (row.chainSeq > expected) {
    const missing = row.chainSeq - expected === 1 ? `place ${expected} is` : `places ${expected}–${row.chainSeq - 1} are`;
    return { kind: "deleted", id: row.id, seq: expected, message: `Chain ${missing} missing, before row ${row.id}: deleted.` };
  }
  if (row.prevHash !== prevHash) {
    if (prev && row.prevHash === beforePrevHash) {
      return {
        kind: "inserted",
        id: prev.id,
        seq: prev.chainSeq,
        message: `Row ${prev.id} (chain ${prev.chainSeq}) was inserted out of order: row ${row.id} was written right after the row before it.`,
      };
    }
    return {
      kind: "deleted",
      id: row.id,
      seq: row.chainSeq,
      message: `Row ${row.id} (chain ${row.chainSeq}) was written after a row that is no longer before it: a row before it was deleted or rewritten.`,
    };
  }
  if (row.hash !== linkHash(row.chainSeq, row.prevHash, row.contentHash)) {
    return {
      kind: "changed",
      ...at,
      message: `Row ${row.id} (chain ${row.chainSeq}) was changed after it was written: its hash is not its own.`,
    };
  }
  return null;
}

function rewritten(row: ChainRow, checkpoint: Checkpoint): ChainProblem {
  return {
    kind: "rewritten",
    id: row.id,
    seq: row.chainSeq,
    message: `The chain at ${checkpoint.seq} ends in ${row.hash!.slice(0, 12)}…, not the checkpoint's ${checkpoint.hash.slice(0, 12)}…: the log up to it was rewritten since.`,
  };
}

/** Rows from before the chain carry no hashes; their number and last id, fixed when it began, still show a deletion or an unchained row added later. */
async function checkLegacy(db: Db, chain: { legacyRows: number; legacyLastId: number }): Promise<ChainProblem | null> {
  const outside = await db.auditEvent.findFirst({
    where: { chainSeq: null, id: { gt: chain.legacyLastId } },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  if (outside) {
    return {
      kind: "inserted",
      id: outside.id,
      seq: null,
      message: `Row ${outside.id} is outside the chain: it was inserted without going through it.`,
    };
  }
  const legacy = await db.auditEvent.count({ where: { chainSeq: null } });
  if (legacy !== chain.legacyRows) {
    return {
      kind: "deleted",
      id: null,
      seq: null,
      message: `${chain.legacyRows - legacy} of the ${chain.legacyRows} rows written before the chain began were deleted.`,
    };
  }
  return null;
}
