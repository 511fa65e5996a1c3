/**
 * What the insights need recorded beside the decisions, none of it on the decision path: who opened
 * a call and its context (the pages' reads), and the review targets in force (at start). A call's
 * own row is written when it is claimed as waiting (lib/events/waiting.ts, in the claim's transaction). The rollups themselves are kept by
 * the triggers of migration `insights`, in the transaction that settles each decision.
 */
import { join, sqltag as sql } from "@prisma/client/runtime/client";
import { executeStatement } from "@agent-approvals/mastra-store";
import { getDb, type Db } from "../db/client.ts";
import { reviewSlaMinutes, riskTargetMinutes } from "../queue/review-target.ts";

/**
 * A reviewer opened a waiting call (its page or its details), or its context (the earlier decisions,
 * the conversation, earlier in the thread). Keeps the first time of each; a database error here is
 * swallowed, because a read must never fail over a statistic.
 */
export async function recordCallView(
  db: Db,
  view: { runId: string; toolCallId: string; reviewer: string; context: boolean },
): Promise<void> {
  try {
    await executeStatement(db, callViewsStatement(view.runId, [view.toolCallId], view.reviewer, view.context));
  } catch (error) {
    console.warn(`Could not record that ${view.reviewer} opened a call: ${(error as Error).message}`);
  }
}

/**
 * `recordCallView` for each of a run's waiting calls (what opening a run, its page or its row, shows
 * them all). Every run page load writes this, so it is one statement: a Prisma upsert per call and an
 * update for the context took six round trips in a transaction, most of a run page's database work.
 */
export async function recordRunViews(runId: string, toolCallIds: string[], reviewer: string, context: boolean): Promise<void> {
  if (toolCallIds.length === 0) return;
  try {
    await executeStatement(await getDb(), callViewsStatement(runId, toolCallIds, reviewer, context));
  } catch (error) {
    console.warn(`Could not record that ${reviewer} opened a run's calls: ${(error as Error).message}`);
  }
}

/**
 * Inserts the views not yet recorded; of those recorded, sets only a context time still missing. The
 * ids are deduplicated: PostgreSQL refuses an ON CONFLICT … DO UPDATE that meets one row twice.
 */
function callViewsStatement(runId: string, toolCallIds: string[], reviewer: string, context: boolean) {
  const now = new Date();
  const contextAt = context ? now : null;
  const rows = [...new Set(toolCallIds)].map((toolCallId) => sql`(${runId}, ${toolCallId}, ${reviewer}, ${now}, ${contextAt})`);
  return sql`INSERT INTO call_views (run_id, tool_call_id, reviewer, opened_at, context_opened_at) VALUES ${join(rows)}
    ON CONFLICT (run_id, tool_call_id, reviewer) DO UPDATE SET context_opened_at = excluded.context_opened_at
    WHERE call_views.context_opened_at IS NULL AND excluded.context_opened_at IS NOT NULL`;
}

/**
 * Reads a run's context (its conversation, earlier in its thread), then records it as opened for each
 * call the run waits on: named by the listing's own column, so the snapshot is not read twice.
 */
export async function recordContextOpened<T>(runId: string, reviewer: string, read: () => Promise<T>): Promise<T> {
  const found = await read();
  const db = await getDb();
  const row = await db.workflowSnapshot.findFirst({ where: { runId, status: "suspended" }, select: { toolCalls: true } });
  let calls: Array<{ toolCallId?: unknown }> = [];
  try {
    calls = JSON.parse(row?.toolCalls ?? "[]");
  } catch {
    calls = []; // a column the store could not fill: nothing to record
  }
  const ids = calls.flatMap((call) => (typeof call.toolCallId === "string" ? [call.toolCallId] : []));
  await recordRunViews(runId, ids, reviewer, true);
  return found;
}

/** Writes the review targets this console runs with, for the decision trigger's "within target". */
export async function recordReviewTargets(db: Db, env: Record<string, string | undefined> = process.env): Promise<void> {
  const targets: Record<string, number> = { ...riskTargetMinutes(env), unrated: reviewSlaMinutes(env) };
  for (const [risk, minutes] of Object.entries(targets)) {
    await db.insightTarget.upsert({ where: { risk }, create: { risk, minutes }, update: { minutes } });
  }
}
