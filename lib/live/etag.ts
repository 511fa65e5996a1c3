/**
 * Conditional reads of the queue: GET /api/queue's ETag and the runs page's `ifChanged` (browseRuns)
 * are one version, made of what a reader's page depends on: the change feed, the reader, their query
 * and the minute (whether a call is overdue changes with the clock, not the feed). Read before the
 * page, so a change that lands while the page is read makes the next read a full one.
 *
 * A reader filtered to a thread, a resource (support staff on a customer's runs) or an agent depends
 * only on the changes of the narrowest of those, and on the changes without a run (a thread
 * assigned): another customer's decisions leave their version alone. Other filters (dates, overdue,
 * risk, assigned to me) narrow nothing here, so a version moves more often than its page, never less.
 *
 * Presence (someone opening a call) moves the feed but no page: it is left out, so a team opening
 * calls does not turn every conditional read into a full one. On PostgreSQL positions come from a
 * sequence and can commit out of order: a change numbered below the newest could appear after the
 * newest was read. The version therefore covers the positions of the newest LATE_COMMIT_WINDOW
 * changes in scope, not the newest alone: only a change that commits after that many later-numbered
 * ones in its scope were read would go unseen.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";

/** How many of the newest changes in scope the version covers: a late commit among them still moves it. */
export const LATE_COMMIT_WINDOW = 100;

const PRESENCE = "presence";

/** The filters of a reader's page as applied (an invalid filter the page ignores is none). */
export interface VersionScope {
  threadId?: string;
  resourceId?: string;
  agentId?: string;
}

type ScopeColumn = keyof VersionScope;

/** The narrowest filter first: a thread is one customer's, a customer's runs are of a few agents. */
const NARROWEST_FIRST: ScopeColumn[] = ["threadId", "resourceId", "agentId"];

export interface VersionOptions {
  scope?: VersionScope;
  now?: number;
}

/** `key`: what else the page depends on (the query as given, which holds the scope's filters too); it only goes into the digest. */
export async function queueVersion(db: Db, readerId: string, key: unknown, { scope = {}, now = Date.now() }: VersionOptions = {}) {
  const column = NARROWEST_FIRST.find((name) => scope[name] !== undefined);
  const newest = (where: Partial<Record<ScopeColumn, string>> & { runId?: null }) =>
    db.queueChange.findMany({
      // Read backwards along an index of the scope ((<column>, position), (run_id, position) or the
      // primary key); presence rows in between are skipped, not returned.
      where: { ...where, kind: { not: PRESENCE } },
      orderBy: { position: "desc" },
      take: LATE_COMMIT_WINDOW,
      select: { position: true },
    });
  const scoped = column ? await Promise.all([newest({ [column]: scope[column] }), newest({ runId: null })]) : [await newest({})];
  const positions = scoped
    .flat()
    .map((row) => row.position)
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
    .slice(0, LATE_COMMIT_WINDOW);
  const digest = createHash("sha256")
    .update(JSON.stringify([readerId, key, column ? [column, scope[column]] : null, Math.floor(now / 60_000), positions.map(String)]))
    .digest("base64url")
    .slice(0, 22);
  return `${positions[0] ?? 0n}.${digest}`;
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
