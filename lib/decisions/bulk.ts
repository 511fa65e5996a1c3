/**
 * Bulk decisions (Approve selected / Decline selected): every call goes through `decide()` on its
 * own, the same checks, first-wins record and carrying out as a single decision, so one call's
 * refusal or failure never stops the others and never changes what happens to them. What the
 * calls share is a batch id, kept on each decision and on each of its audit entries.
 */
import { randomUUID } from "node:crypto";
import type { AuditCredential, DecisionVia } from "../audit/log.ts";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { BulkRefusals } from "./bulk-refusals.ts";
import { numericSetting } from "../numeric-settings.mjs";
import { decide } from "./decide.ts";
import { DecisionError, type BulkCallResult, type BulkOutcome, type Decision } from "./types.ts";

export interface BulkRequest {
  action: "approve" | "decline";
  calls: Array<{ runId: string; toolCallId: string; agentId?: string }>;
  reason?: string;
}

/**
 * How many calls of a bulk request are carried out at the same time (BULK_CONCURRENCY, default 4).
 * Calls of one memory thread are always carried out one after the other, in request order: a run
 * continues one call at a time, and a thread's conversation one run at a time. bench/bulk.ts
 * measures it: on PostgreSQL 4 at once beat one at a time, on SQLite (one writer) it made no
 * difference either way.
 */
export function bulkConcurrency(): number {
  return numericSetting("BULK_CONCURRENCY");
}

/** Decides each call of `request` independently; one result per call, in request order. */
export async function decideBatch(
  request: BulkRequest,
  {
    reviewer,
    databaseUrl = databaseUrlFromEnv(),
    batchId = randomUUID(),
    concurrency = bulkConcurrency(),
    via,
    credential,
  }: {
    reviewer: string;
    databaseUrl?: string;
    batchId?: string;
    concurrency?: number;
    /** Where the reviewer decided (the console's Approve selected, or the JSON API): kept on each decision. */
    via?: DecisionVia;
    /** How the reviewer authenticated (and which API token): kept on each audit entry. */
    credential?: AuditCredential;
  },
): Promise<BulkOutcome> {
  const results: BulkCallResult[] = new Array(request.calls.length);
  const refusals = new BulkRefusals(request.calls);
  const decideOne = async (index: number) => {
    const call = request.calls[index]!;
    const decision = (
      request.action === "decline" ? { action: "decline", ...call, reason: request.reason } : { action: "approve", ...call }
    ) as Decision;
    results[index] = await settle(call, () => decide(decision, { reviewer, databaseUrl, batchId, refusals, via, credential }));
  };
  const queues = await lanes(request.calls, databaseUrl);
  const worker = async () => {
    for (let queue = queues.shift(); queue; queue = queues.shift()) {
      for (const index of queue) await decideOne(index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queues.length)) }, worker));
  await refusals.write(await getDb(databaseUrl), {
    reviewer,
    batchId,
    via,
    credential,
    action: request.action,
    requested: request.calls.length,
  });
  await addWhatTheLogKnows(batchId, results, databaseUrl);
  for (const result of results) {
    const toolName = result.toolName ?? refusals.toolNameOf(result);
    if (toolName) result.toolName = toolName;
  }
  const counts = { applied: 0, awaiting_approvals: 0, already_decided: 0, refused: 0, failed: 0 };
  for (const result of results) counts[result.status]++;
  return { batchId, action: request.action, results, counts };
}

/**
 * The calls' indexes grouped by memory thread (by run where the store does not know the thread, e.g.
 * an unknown run), in request order: the lanes that may run side by side. One indexed read.
 */
async function lanes(calls: BulkRequest["calls"], databaseUrl: string): Promise<number[][]> {
  const db = await getDb(databaseUrl);
  const rows = await db.workflowSnapshot.findMany({
    where: { runId: { in: [...new Set(calls.map((call) => call.runId))] }, threadId: { not: null } },
    select: { runId: true, threadId: true },
  });
  const threadOf = new Map(rows.map((row) => [row.runId, row.threadId!]));
  const byLane = new Map<string, number[]>();
  calls.forEach((call, index) => {
    const lane = threadOf.has(call.runId) ? `thread:${threadOf.get(call.runId)}` : `run:${call.runId}`;
    byLane.set(lane, [...(byLane.get(lane) ?? []), index]);
  });
  return [...byLane.values()];
}

/** One call's decision as a result: never an exception, whatever happened. */
async function settle(call: { runId: string; toolCallId: string }, work: () => ReturnType<typeof decide>): Promise<BulkCallResult> {
  const target = { runId: call.runId, toolCallId: call.toolCallId };
  try {
    const outcome = await work();
    // One approval per call: a call that needs several people's approvals counts this one and waits.
    if (outcome.runState === "awaiting-approvals") return { ...target, status: "awaiting_approvals", approvals: outcome.approvals };
    return {
      ...target,
      status: "applied",
      answer: outcome.answer,
      runState: outcome.runState,
      ...(outcome.approvals ? { approvals: outcome.approvals } : {}),
    };
  } catch (error) {
    if (error instanceof DecisionError && error.code === "already_decided" && error.priorDecision) {
      return {
        ...target,
        status: "already_decided",
        code: error.code,
        message: error.message,
        decidedBy: error.priorDecision.reviewer,
        decidedAt: error.priorDecision.decidedAt,
      };
    }
    if (error instanceof DecisionError) {
      return { ...target, status: error.code === "agent_failed" ? "failed" : "refused", code: error.code, message: error.message };
    }
    console.error("[bulk decision]", error);
    return {
      ...target,
      status: "failed",
      code: "internal",
      message: "The server could not complete this call. Try it again on its own; if it persists, check the server log.",
    };
  }
}

/**
 * What the batch's audit entries add to the results (one indexed read): each call's tool, and for a
 * call whose decision was recorded and then failed (the agent failed, or the run changed between the
 * checks and carrying it out) the ledger's own account, which says whether it is decidable again.
 */
async function addWhatTheLogKnows(batchId: string, results: BulkCallResult[], databaseUrl: string): Promise<void> {
  const db = await getDb(databaseUrl);
  const entries = await db.auditEvent.findMany({
    where: { batchId },
    select: { runId: true, toolCallId: true, toolName: true, outcome: true, message: true },
    orderBy: { id: "asc" },
  });
  const byCall = new Map<string, { toolName?: string; failure?: string }>();
  for (const entry of entries) {
    const key = JSON.stringify([entry.runId, entry.toolCallId]);
    const known = byCall.get(key) ?? {};
    if (entry.toolName) known.toolName = entry.toolName;
    if (entry.outcome === "failed" && entry.message) known.failure = entry.message;
    byCall.set(key, known);
  }
  for (const result of results) {
    const known = byCall.get(JSON.stringify([result.runId, result.toolCallId]));
    if (known?.toolName) result.toolName = known.toolName;
    if (known?.failure && result.status !== "applied") Object.assign(result, { status: "failed", message: known.failure });
  }
}
