/**
 * "Earlier decisions" beside a waiting call: how this customer's calls of the same tool were decided
 * in the last 30 days (and the latest few, who and when), and what was decided earlier in the same
 * thread. Read from the decisions table by its (resource, tool, time) and (thread, time) indexes and
 * from the audit log's (resource, time) index for decisions made outside the console: a range of one
 * customer's rows, never a scan of the history.
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import type { EarlierDecision, EarlierDecisions } from "../runs/conversation-dto.ts";

export const EARLIER_DAYS = 30;
const RECENT = 5;
const THREAD = 10;

const COUNTED: Record<string, keyof EarlierDecisions["counts"]> = {
  approve: "approved",
  decline: "declined",
  resume: "resumed",
  expire: "expired",
};

export async function earlierDecisions(
  call: { runId: string; toolCallId: string; toolName: string | null; resourceId: string | null; threadId: string | null },
  { databaseUrl = databaseUrlFromEnv(), now = new Date() }: { databaseUrl?: string; now?: Date } = {},
): Promise<EarlierDecisions> {
  const db = await getDb(databaseUrl);
  const since = new Date(now.getTime() - EARLIER_DAYS * 24 * 60 * 60 * 1000);
  const counts = { approved: 0, declined: 0, resumed: 0, expired: 0, outside: 0 };
  const select = { runId: true, toolCallId: true, toolName: true, action: true, reviewer: true, decidedAt: true } as const;
  const notThisCall = { NOT: { runId: call.runId, toolCallId: call.toolCallId } };
  let recent: EarlierDecision[] = [];
  if (call.resourceId && call.toolName) {
    const sameTool = { resourceId: call.resourceId, toolName: call.toolName, decidedAt: { gte: since }, state: "applied", ...notThisCall };
    const [grouped, latest, outside] = await Promise.all([
      db.toolCallDecision.groupBy({ by: ["action"], where: sameTool, _count: { _all: true } }),
      db.toolCallDecision.findMany({ where: sameTool, orderBy: { decidedAt: "desc" }, take: RECENT, select }),
      db.auditEvent.count({
        where: { resourceId: call.resourceId, at: { gte: since }, toolName: call.toolName, outcome: "decided-outside" },
      }),
    ]);
    for (const group of grouped) {
      const key = COUNTED[group.action];
      if (key) counts[key] += group._count._all;
    }
    counts.outside = outside;
    recent = latest.map(toEarlier);
  }
  const thread = call.threadId
    ? (
        await db.toolCallDecision.findMany({
          where: { threadId: call.threadId, state: "applied", ...notThisCall },
          orderBy: { decidedAt: "desc" },
          take: THREAD,
          select,
        })
      ).map(toEarlier)
    : [];
  return { resourceId: call.resourceId, toolName: call.toolName, days: EARLIER_DAYS, counts, recent, thread };
}

function toEarlier(row: {
  runId: string;
  toolCallId: string;
  toolName: string | null;
  action: string;
  reviewer: string;
  decidedAt: Date;
}): EarlierDecision {
  return { ...row, decidedAt: row.decidedAt.toISOString() };
}
