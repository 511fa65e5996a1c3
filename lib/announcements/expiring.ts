/**
 * `call.expiring`: `warnMinutes` before a call expires under its rule (lib/decisions/expire.ts), it is
 * announced once, with `expiresAt` (lib/announcements/record.ts makes it once across instances and
 * restarts). Rules without `warnMinutes` warn nobody: the default, since a warning is only worth
 * something to a team that decided who acts on it.
 *
 * Cheap at any backlog: per rule, only the runs inside its warning window are read, those waiting
 * between `after` and `after - warn` minutes (a range of the (status, updated_at, agent_id, …)
 * index). They are the calls that are about to expire, not the backlog: older ones have expired
 * (and left, or were marked), younger ones are not due.
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { ruleFor, type ExpiryRuleInput } from "../decisions/expire.ts";
import {
  announceOnce,
  announcedCalls,
  callKey,
  callsOf,
  decidedCalls,
  WAITING_RUN_COLUMNS,
  waitingCallData,
  type WaitingRun,
} from "./record.ts";

const BATCH = 200;

/** Announces the calls whose warning time under their rule has come; returns how many. */
export async function announceExpiringCalls(databaseUrl: string = databaseUrlFromEnv(), now: Date = new Date()): Promise<number> {
  const db = await getDb(databaseUrl);
  const rules: ExpiryRuleInput[] = await db.expiryRule.findMany();
  let announced = 0;
  for (const rule of rules) {
    if (!rule.warnMinutes) continue;
    const expiredBefore = new Date(now.getTime() - rule.afterMinutes * 60_000);
    const warnedBefore = new Date(now.getTime() - (rule.afterMinutes - rule.warnMinutes) * 60_000);
    let after: { updatedAt: Date; runId: string } | undefined;
    for (;;) {
      const runs: WaitingRun[] = await db.workflowSnapshot.findMany({
        where: {
          status: "suspended",
          agentId: rule.agentId,
          // Within the window; from the last page's end on (an explicit bound: the OR gives the index none).
          updatedAt: { gte: after && after.updatedAt > expiredBefore ? after.updatedAt : expiredBefore, lt: warnedBefore },
          ...(after ? { OR: [{ updatedAt: { gt: after.updatedAt } }, { updatedAt: after.updatedAt, runId: { gt: after.runId } }] } : {}),
        },
        select: WAITING_RUN_COLUMNS,
        orderBy: [{ updatedAt: "asc" }, { runId: "asc" }],
        take: BATCH,
      });
      const [decided, announcedBefore] = await Promise.all([decidedCalls(db, runs), announcedCalls(db, "call.expiring", runs)]);
      for (const run of runs) {
        for (const call of callsOf(run)) {
          // Only the calls this very rule governs (a tool's own rule wins over its agent's), and that it can expire.
          if (ruleFor(rules, rule.agentId, call.toolName) !== rule || !(call.requiresApproval || rule.mode === "mark")) continue;
          const key = callKey(run.runId, call.toolCallId);
          if (decided.has(key) || announcedBefore.has(key)) continue;
          const data = {
            ...waitingCallData(run, call),
            expiresAt: new Date(run.updatedAt.getTime() + rule.afterMinutes * 60_000).toISOString(),
            mode: rule.mode,
          };
          if (await announceOnce(db, "call.expiring", run, call.toolCallId, data, now)) announced++;
        }
      }
      if (runs.length < BATCH) break;
      after = { updatedAt: runs.at(-1)!.updatedAt, runId: runs.at(-1)!.runId };
    }
  }
  return announced;
}
