/**
 * Pages of threads for the queue's one-risk filter read from waiting_thread_risks (per thread and
 * risk: the runs with a waiting call of it, their calls, the oldest waiting start; kept by triggers
 * on waiting_call_risks) instead of grouping every rated run of that risk: at 1M waiting runs with
 * one call in eight rated high, grouping them took 100+ ms on PostgreSQL; this reads the page, and
 * the totals from the risk's row of waiting_risk_totals (counting its 20k threads took 5 ms). The
 * filter the console's risk menu sends (one risk, nothing else but the waiting-time sorts) is
 * covered; several risks (a run may have two of them), a narrower filter or "highest risk first"
 * group the matching runs as before (lib/runs/list-threads.ts).
 */
import { sqltag as sql } from "@prisma/client/runtime/client";
import { queryStatement } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import { recentCallsOfRatedThreads, risksLead } from "./risk-sql.ts";
import type { ThreadQuery, ThreadRow } from "./thread-sql.ts";

/** Whether a page for `query` can be read from the per-thread risk summaries. */
export function riskSummariesCover(query: ThreadQuery): boolean {
  if (!risksLead(query) || query.risks.length !== 1) return false;
  if (query.agentId || query.threadId || query.noThread || query.fromDate || query.toDate || query.onlyOverdue) return false;
  return query.sort !== "risk";
}

export async function pageOfRiskSummaries(
  db: Db,
  query: ThreadQuery,
): Promise<{ rows: ThreadRow[]; threadTotal: number; callTotal: number }> {
  const risk = query.risks![0]!;
  const direction = query.sort === "newest" ? sql`DESC` : sql`ASC`;
  const [page, [totals]] = await Promise.all([
    queryStatement<{ threadKey: string; calls: number | bigint; oldestAt: Date | string }>(
      db,
      sql`
      SELECT "thread_key" AS "threadKey", "calls", "oldest_at" AS "oldestAt" FROM "waiting_thread_risks" WHERE "risk" = ${risk}
      ORDER BY "oldest_at" ${direction}, "thread_key" ${direction}
      LIMIT ${query.perPage} OFFSET ${query.page * query.perPage}`,
    ),
    queryStatement<{ threads: number | bigint; calls: number | bigint | null }>(
      db,
      sql`SELECT "threads", "calls" FROM "waiting_risk_totals" WHERE "risk" = ${risk}`,
    ),
  ]);
  // How many of each shown thread's matching calls are not overdue yet: from its rated rows alone.
  const recent = await recentCallsOfRatedThreads(
    db,
    { ...query, risks: [risk] },
    page.map((row) => row.threadKey),
  );
  return {
    rows: page.map((row) => ({
      threadKey: row.threadKey,
      calls: Number(row.calls),
      // SQLite returns a DATETIME column read through a raw statement as its stored text.
      oldestAt: new Date(row.oldestAt),
      recentCalls: recent?.get(row.threadKey) ?? 0,
    })),
    threadTotal: Number(totals?.threads ?? 0),
    callTotal: Number(totals?.calls ?? 0),
  };
}
