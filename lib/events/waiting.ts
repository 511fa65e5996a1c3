/**
 * `call.waiting`: the store's triggers record every tool call that starts waiting
 * (`waiting_tool_calls`, in the same transaction as the snapshot write, whichever process wrote it);
 * here each is moved into the console's outbox. Safe from several console instances at once: a row
 * is claimed by deleting it in the transaction that writes its event, so each call is announced once.
 */
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { emitEvent } from "./outbox.ts";

const BATCH = 200;

type Claimed = {
  runId: string;
  toolCallId: string;
  agentId: string;
  workflowName: string;
  resourceId: string | null;
  toolName: string | null;
};
/**
 * What else claiming a call does (the rules, lib/rules/auto-decide.ts, passed in by lib/events-loop.ts
 * so this folder does not depend on the decision engine): prepared before the transaction, then run
 * for each call this instance claimed, inside it.
 */
export type ClaimHook = (
  calls: Claimed[],
  databaseUrl: string,
) => Promise<((tx: Pick<Db, "callRuleMatch" | "suggestion">, call: Claimed) => Promise<void>) | null>;

/**
 * Announces the calls that started waiting since the last look; returns how many. One transaction
 * per look, not per call: after a burst of suspensions (or a console first opening a store with a
 * backlog) a transaction each made 200 commits a second, every one a write to disk, and the queue's
 * pages waited behind them for the database.
 */
export async function recordWaitingCalls(databaseUrl: string = databaseUrlFromEnv(), onClaim?: ClaimHook): Promise<number> {
  const db = await getDb(databaseUrl);
  const waiting = await db.waitingToolCall.findMany({ orderBy: { waitingSince: "asc" }, take: BATCH });
  if (waiting.length === 0) return 0;
  const step = onClaim ? await onClaim(waiting, databaseUrl) : null;
  return db.$transaction(async (tx) => {
    let recorded = 0;
    for (const call of waiting) {
      // Another console that claimed the call first has announced it.
      const { count } = await tx.waitingToolCall.deleteMany({ where: { runId: call.runId, toolCallId: call.toolCallId } });
      if (count === 0) continue;
      recorded++;
      if (step) await step(tx, call);
      // The call's review row for the insights (lib/insights), after the rules' match so that its
      // arrival counts with the risk they gave it; a call claimed again keeps its first wait.
      await tx.callReview.upsert({
        where: { runId_toolCallId: { runId: call.runId, toolCallId: call.toolCallId } },
        create: {
          runId: call.runId,
          toolCallId: call.toolCallId,
          agentId: call.agentId,
          toolName: call.toolName ?? "",
          resourceId: call.resourceId,
          waitingSince: call.waitingSince,
        },
        update: {},
      });
      await emitEvent(tx, "call.waiting", {
        runId: call.runId,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        agentId: call.agentId,
        threadId: call.threadId,
        resourceId: call.resourceId,
        workflowName: call.workflowName,
        waitingSince: call.waitingSince.toISOString(),
      });
    }
    return recorded;
  });
}
