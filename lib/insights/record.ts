/**
 * What the insights need recorded beside the decisions, none of it on the decision path: who opened
 * a call and its context (the pages' reads), and the review targets in force (at start). A call's
 * own row is written when it is claimed as waiting (lib/events/waiting.ts, in the claim's transaction). The rollups themselves are kept by
 * the triggers of migration `insights`, in the transaction that settles each decision.
 */
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
  const now = new Date();
  const key = { runId: view.runId, toolCallId: view.toolCallId, reviewer: view.reviewer };
  try {
    await db.callView.upsert({
      where: { runId_toolCallId_reviewer: key },
      create: { ...key, openedAt: now, contextOpenedAt: view.context ? now : null },
      update: {},
    });
    if (view.context) await db.callView.updateMany({ where: { ...key, contextOpenedAt: null }, data: { contextOpenedAt: now } });
  } catch (error) {
    console.warn(`Could not record that ${view.reviewer} opened a call: ${(error as Error).message}`);
  }
}

/**
 * `recordCallView` for each of a run's waiting calls (what opening a run, its page or its row, shows
 * them all): one transaction, so a run of many parallel calls costs one commit.
 */
export async function recordRunViews(runId: string, toolCallIds: string[], reviewer: string, context: boolean): Promise<void> {
  if (toolCallIds.length === 0) return;
  const db = await getDb();
  const now = new Date();
  const keys = toolCallIds.map((toolCallId) => ({ runId, toolCallId, reviewer }));
  try {
    await db.$transaction([
      ...keys.map((key) =>
        db.callView.upsert({
          where: { runId_toolCallId_reviewer: key },
          create: { ...key, openedAt: now, contextOpenedAt: context ? now : null },
          update: {},
        }),
      ),
      ...(context
        ? [
            db.callView.updateMany({
              where: { runId, reviewer, toolCallId: { in: toolCallIds }, contextOpenedAt: null },
              data: { contextOpenedAt: now },
            }),
          ]
        : []),
    ]);
  } catch (error) {
    console.warn(`Could not record that ${reviewer} opened a run's calls: ${(error as Error).message}`);
  }
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
