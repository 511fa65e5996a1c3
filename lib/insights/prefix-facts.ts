/**
 * The insights' facts under a resource prefix, from the calls' own rows (call_reviews, by its
 * resource index), since a rollup cannot know every prefix. The database counts them (GROUP BY),
 * with the triggers' own formulas for a wait, its bucket and "within target": reading the rows
 * themselves cost 200 ms per 5,000 calls in Prisma's row mapping alone, and a prefix may cover tens
 * of thousands. Each call counts on the local day of the hour it started waiting or was decided.
 */
import { isPostgresClient } from "@agent-approvals/mastra-store";
import { empty, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { Db } from "../db/client.ts";
import type { Facts, Filters } from "./facts.ts";
import { planDays } from "./hours.ts";
import type { Period } from "./period.ts";

const HOUR_MS = 3_600_000;
type Count = number | bigint | string | null;
const n = (value: Count) => Number(value ?? 0);

/** How one dialect writes the triggers' formulas (migration `insights`). */
interface Dialect {
  hourOf(column: Sql): Sql;
  waitMs: Sql;
  bucket: Sql;
}

const postgres: Dialect = {
  hourOf: (column) => sql`floor(extract(epoch FROM ${column}) / 3600)::INT`,
  waitMs: sql`insights_wait_ms(r.waiting_since, r.decided_at)`,
  bucket: sql`CASE WHEN r.waiting_since IS NULL THEN -1
    ELSE floor(ln(1 + insights_wait_ms(r.waiting_since, r.decided_at) / 1000.0) / ln(1.25))::INT END`,
};

const sqlite: Dialect = {
  hourOf: (column) => sql`CAST(strftime('%s', ${column}) AS INTEGER) / 3600`,
  waitMs: sql`max(0, (julianday(r.decided_at) - julianday(r.waiting_since)) * 86400000.0)`,
  bucket: sql`CASE WHEN r.waiting_since IS NULL THEN -1
    ELSE CAST(floor(ln(1 + max(0, (julianday(r.decided_at) - julianday(r.waiting_since)) * 86400.0)) / ln(1.25)) AS INTEGER) END`,
};

/**
 * The facts of the calls whose resource starts with the prefix that started waiting or were decided
 * in the period's hours, with the review targets in force now for "within target". The quick and
 * streak signals are kept only in the rollups, per reviewer: not counted here.
 */
export async function prefixFacts(db: Db, period: Period, filters: Filters & { resourcePrefix: string }): Promise<Facts> {
  const plan = planDays(period);
  const dialect = isPostgresClient(db) ? postgres : sqlite;
  const from = new Date(plan.fromHour * HOUR_MS);
  const to = new Date(plan.toHour * HOUR_MS);
  const after = prefixEnd(filters.resourcePrefix);
  const calls = sql`r.resource_id >= ${filters.resourcePrefix} ${after === null ? empty : sql`AND r.resource_id < ${after}`}
    ${filters.agentId === undefined ? empty : sql`AND r.agent_id = ${filters.agentId}`}
    ${filters.toolName === undefined ? empty : sql`AND r.tool_name = ${filters.toolName}`}
    ${filters.risk === undefined ? empty : sql`AND r.risk = ${filters.risk}`}`;
  const arrived = sql`FROM call_reviews r WHERE ${calls} AND r.waiting_since >= ${from} AND r.waiting_since < ${to}`;
  const decided = sql`FROM call_reviews r LEFT JOIN insight_targets t ON t.risk = COALESCE(r.risk, 'unrated')
    WHERE ${calls} AND r.decided_at >= ${from} AND r.decided_at < ${to}`;
  const person = sql`${decided} AND r.source = 'person'`;
  const timed = sql`sum(CASE WHEN r.waiting_since IS NULL THEN 0 ELSE 1 END)`;
  const within = sql`sum(CASE WHEN r.waiting_since IS NOT NULL AND r.source <> 'outside'
    AND ${dialect.waitMs} < COALESCE(t.minutes, 0) * 60000 THEN 1 ELSE 0 END)`;
  const risk = sql`COALESCE(r.risk, 'unrated')`;

  type Key = { agent_id: string; tool_name: string; risk: string };
  const [arrivedByKey, arrivedByHour, decidedByKey, decidedByHour, waits, reviewers, reviewerWaits] = await Promise.all([
    db.$queryRaw<Array<Key & { calls: Count }>>`SELECT r.agent_id, r.tool_name, ${risk} AS risk, count(*) AS calls ${arrived}
      GROUP BY r.agent_id, r.tool_name, ${risk}`,
    db.$queryRaw<Array<{ hour: Count; calls: Count }>>`SELECT ${dialect.hourOf(sql`r.waiting_since`)} AS hour, count(*) AS calls ${arrived}
      GROUP BY ${dialect.hourOf(sql`r.waiting_since`)}`,
    db.$queryRaw<Array<Key & { source: string; action: string; calls: Count; timed: Count; within: Count }>>`
      SELECT r.agent_id, r.tool_name, ${risk} AS risk, r.source, r.action, count(*) AS calls, ${timed} AS timed, ${within} AS within
      ${decided} GROUP BY r.agent_id, r.tool_name, ${risk}, r.source, r.action`,
    db.$queryRaw<Array<{ hour: Count; source: string; calls: Count; timed: Count; within: Count }>>`
      SELECT ${dialect.hourOf(sql`r.decided_at`)} AS hour, r.source, count(*) AS calls, ${timed} AS timed, ${within} AS within
      ${decided} GROUP BY ${dialect.hourOf(sql`r.decided_at`)}, r.source`,
    db.$queryRaw<Array<Key & { bucket: Count; calls: Count }>>`
      SELECT r.agent_id, r.tool_name, ${risk} AS risk, ${dialect.bucket} AS bucket, count(*) AS calls
      ${person} GROUP BY r.agent_id, r.tool_name, ${risk}, ${dialect.bucket}`,
    db.$queryRaw<Array<{ reviewer: string; calls: Count; approved: Count; unopened: Count }>>`
      SELECT r.decided_by AS reviewer, count(*) AS calls, sum(CASE WHEN r.action = 'approve' THEN 1 ELSE 0 END) AS approved,
        sum(CASE WHEN r.context_opened THEN 0 ELSE 1 END) AS unopened
      ${person} GROUP BY r.decided_by`,
    db.$queryRaw<Array<{ reviewer: string; bucket: Count; calls: Count }>>`
      SELECT r.decided_by AS reviewer, ${dialect.bucket} AS bucket, count(*) AS calls ${person} GROUP BY r.decided_by, ${dialect.bucket}`,
  ]);

  // Hours of one local day add up to one row per date.
  const days = new Map<string, { date: string; source: string; calls: number; timed: number; withinTarget: number }>();
  const addDay = (hour: Count, source: string, calls: number, timedCalls: number, withinTarget: number) => {
    const date = plan.dateOfHour(n(hour));
    const row = days.get(`${date} ${source}`) ?? { date, source, calls: 0, timed: 0, withinTarget: 0 };
    row.calls += calls;
    row.timed += timedCalls;
    row.withinTarget += withinTarget;
    days.set(`${date} ${source}`, row);
  };
  for (const row of arrivedByHour) addDay(row.hour, "arrived", n(row.calls), 0, 0);
  for (const row of decidedByHour) addDay(row.hour, row.source, n(row.calls), n(row.timed), n(row.within));
  const key = (row: Key) => ({ agentId: row.agent_id, toolName: row.tool_name, risk: row.risk });
  return {
    outcomes: [
      ...arrivedByKey.map((row) => ({ ...key(row), source: "arrived", action: "wait", calls: n(row.calls), timed: 0, withinTarget: 0 })),
      ...decidedByKey.map((row) => ({
        ...key(row),
        source: row.source,
        action: row.action,
        calls: n(row.calls),
        timed: n(row.timed),
        withinTarget: n(row.within),
      })),
    ],
    days: [...days.values()],
    waits: waits.map((row) => ({ ...key(row), bucket: n(row.bucket), calls: n(row.calls) })),
    reviewers: reviewers.map((row) => ({
      reviewer: row.reviewer,
      calls: n(row.calls),
      approved: n(row.approved),
      unopened: n(row.unopened),
      quick: 0,
      streak: 0,
    })),
    reviewerWaits: reviewerWaits.map((row) => ({ reviewer: row.reviewer, bucket: n(row.bucket), calls: n(row.calls) })),
    signalsCounted: false,
  };
}

/**
 * The first string after every string that starts with `prefix`, in code point order (SQLite's
 * BINARY, and the "C" collation call_reviews.resource_id has on PostgreSQL), or null when there is
 * none: a range of the resource index, where LIKE 'prefix%' would read the whole period.
 */
export function prefixEnd(prefix: string): string | null {
  const points = [...prefix].map((char) => char.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return null;
}
