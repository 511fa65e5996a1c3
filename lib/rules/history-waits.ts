/**
 * Since when a past decision's call waited, for "the time it would have saved". The console keeps
 * no row per call that waited yet, so this is pieced together from what it does keep:
 * 1. call_rule_matches.matched_at (read with the decision, past-decisions.ts): when the console
 *    claimed the newly waiting call and tried the rules on it, a few seconds after it started
 *    waiting; written for every call claimed while a rule or a suggestion existed;
 * 2. else the `call.waiting` event the claim wrote to the outbox, whose `waitingSince` is when the
 *    call started waiting (the run's snapshot time); the outbox keeps 30 days of events
 *    (lib/webhooks/retention.ts). Read in one range of the outbox's time index, only when some
 *    decision still lacks its start.
 * A call found in neither waits for an unknown time: counted apart, never guessed.
 */
import { sqltag as sql } from "@prisma/client/runtime/client";
import { queryStatement } from "@agent-approvals/mastra-store";
import type { Db } from "../db/client.ts";
import type { PastDecision } from "./past-decisions.ts";

/** How far before the earliest decision a call.waiting event is looked for: the outbox keeps no older ones anyway. */
const LOOK_BACK_MS = 30 * 86_400_000;

const keyOf = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

/** Decisions whose call was looked for in the outbox already (found or not): never looked for twice. */
const lookedUp = new WeakSet<PastDecision>();

/** Fills in `waitingSince` of the decisions that lack it, from the outbox's `call.waiting` events. */
export async function fillWaitingSince(db: Db, decisions: readonly PastDecision[]): Promise<void> {
  const missing = new Map<string, PastDecision>();
  let earliest = Infinity;
  let latest = -Infinity;
  for (const decision of decisions) {
    if (decision.waitingSince !== null || lookedUp.has(decision)) continue;
    lookedUp.add(decision);
    missing.set(keyOf(decision.runId, decision.toolCallId), decision);
    earliest = Math.min(earliest, decision.decidedAt.getTime());
    latest = Math.max(latest, decision.decidedAt.getTime());
  }
  if (missing.size === 0) return;
  const from = new Date(earliest - LOOK_BACK_MS);
  const to = new Date(latest + 1);
  // The payloads as they are, parsed here: faster than the databases' own JSON functions on both
  // (PostgreSQL's jsonb cast took 1.7 s for 100,000 events, SQLite's json_extract 0.7 s; JSON.parse 0.1 s).
  const payloads = await queryStatement<{ payload: string }>(
    db,
    sql`SELECT payload FROM outbox_events WHERE created_at >= ${from} AND created_at < ${to} AND type = ${"call.waiting"}`,
  );
  const rows = payloads.map(
    ({ payload }) => (JSON.parse(payload) as { data?: Partial<Record<"runId" | "toolCallId" | "waitingSince", string>> }).data ?? {},
  );
  for (const row of rows) {
    if (!row.runId || !row.toolCallId || !row.waitingSince) continue;
    const decision = missing.get(keyOf(row.runId, row.toolCallId));
    const since = new Date(row.waitingSince);
    // A call may wait more than once (a run waiting again on the same call id): the latest start before the decision counts.
    if (!decision || Number.isNaN(since.getTime()) || since > decision.decidedAt) continue;
    if (decision.waitingSince === null || since > decision.waitingSince) decision.waitingSince = since;
  }
}

/** How long the call waited before it was decided, in milliseconds; null when its start is unknown. */
export function waitOf(decision: Pick<PastDecision, "waitingSince" | "decidedAt">): number | null {
  return decision.waitingSince === null ? null : Math.max(0, decision.decidedAt.getTime() - decision.waitingSince.getTime());
}
