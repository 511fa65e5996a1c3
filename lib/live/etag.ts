/**
 * Conditional reads of the queue: GET /api/queue's ETag and the runs page's `ifChanged` (browseRuns)
 * are one version, made of what a reader's page depends on: the change feed, the reader, their query
 * and the minute (whether a call is overdue changes with the clock, not the feed). Read before the
 * page, so a change that lands while the page is read makes the next read a full one.
 *
 * Presence (someone opening a call) moves the feed but no page: it is left out, so a team opening
 * calls does not turn every conditional read into a full one. On PostgreSQL positions come from a
 * sequence and can commit out of order: a change numbered below the newest could appear after the
 * newest was read. The version therefore covers the positions of the newest changes, not the newest
 * alone; like a stream's replay (lib/live/stream.ts), only a change numbered more than
 * LATE_COMMIT_WINDOW below the newest and committed after it was read would go unseen.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";

/** How far below the newest change a late commit still changes the version (the stream replays as far). */
export const LATE_COMMIT_WINDOW = 100;

const PRESENCE = "presence";

export async function queueVersion(db: Db, readerId: string, query: unknown, now = Date.now()): Promise<string> {
  // Newest first along the primary key; presence rows in between are skipped, not read.
  const newest = await db.queueChange.findFirst({
    where: { kind: { not: PRESENCE } },
    orderBy: { position: "desc" },
    select: { position: true },
  });
  const head = newest ? newest.position : 0n;
  const recent = newest
    ? await db.queueChange.findMany({
        where: { position: { gt: head - BigInt(LATE_COMMIT_WINDOW), lte: head }, kind: { not: PRESENCE } },
        orderBy: { position: "asc" },
        select: { position: true },
      })
    : [];
  const digest = createHash("sha256")
    .update(JSON.stringify([readerId, query, Math.floor(now / 60_000), recent.map((row) => String(row.position))]))
    .digest("base64url")
    .slice(0, 22);
  return `${head}.${digest}`;
}

/** The ETag of a version: weak, since the same page may be serialized differently. */
export function etagOf(version: string): string {
  return `W/"${version}"`;
}

/** Whether If-None-Match names `etag` (a list of tags, or `*`); weak comparison, as for a GET. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}
