/**
 * Conditional reads of the queue (GET /api/queue): an ETag from the change feed's head, the reader,
 * their query and the minute (whether a call is overdue changes with the clock, not the feed). Read
 * before the page, so a change that lands while the page is read makes the next read a full one.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { feedHead } from "./feed.ts";

export async function queueEtag(db: Db, readerId: string, query: unknown, now = Date.now()): Promise<string> {
  const head = await feedHead(db);
  const digest = createHash("sha256")
    .update(JSON.stringify([readerId, query, Math.floor(now / 60_000)]))
    .digest("base64url")
    .slice(0, 22);
  return `W/"${head}.${digest}"`;
}

/** Whether If-None-Match names `etag` (a list of tags, or `*`); weak comparison, as for a GET. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}
