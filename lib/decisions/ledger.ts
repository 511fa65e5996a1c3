/**
 * The decisions table as a ledger: a decision is recorded before anything is sent to the agent
 * (first one wins per run and tool call), and every move between states is one conditional UPDATE
 * plus its audit row, in one transaction. The one place that writes tool_call_decisions.
 */
import { randomUUID } from "node:crypto";
import type { Sql } from "@prisma/client/runtime/client";
import { executeStatement, isPostgresClient, statementTransaction } from "@agent-approvals/mastra-store";
import { appendAudit, auditInsert, type AuditEntry } from "../audit/log.ts";
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { failpoint } from "../failpoint.ts";
import { emitUnmailedEvent, unmailedEventCtes } from "../events/outbox.ts";
import { decidedEvent, settledEventOf } from "./decided-event.ts";
import {
  decisionInsert,
  moveInOneStatement,
  moveStatement,
  recordInOneStatement,
  toolRanStatement,
  writtenBy,
  retriedOnConflict,
  type DecisionChanges,
} from "./ledger-statements.ts";
import { numericSetting } from "../numeric-settings.mjs";
import { replaceSuggestion, suggestionInsert, type SuggestionRow } from "./suggestion-record.ts";
import {
  DECIDED,
  DECIDING,
  DecisionError,
  INTERRUPTED,
  declinesCall,
  reasonOf,
  type Decision,
  type DecisionState,
  type PriorDecision,
} from "./types.ts";

/** How long a process may hold a decision without renewing it before recovery takes over. */
export function decisionLeaseMs(): number {
  return numericSetting("DECISION_LEASE_MS");
}

export function describePrior(prior: ToolCallDecision): PriorDecision {
  return {
    reviewer: prior.reviewer,
    action: prior.action as Decision["action"],
    state: prior.state as DecisionState,
    decidedAt: prior.decidedAt.toISOString(),
  };
}

export function alreadyDecided(prior: ToolCallDecision): DecisionError {
  const priorDecision = describePrior(prior);
  return new DecisionError(
    "already_decided",
    priorDecision.action === "expire"
      ? `This tool call expired at ${priorDecision.decidedAt} (${prior.reason ?? "no reviewer in time"}): ${
          prior.expiryMode === "mark" ? "it was marked expired and can no longer be decided here" : "it was declined through the agent"
        }.`
      : `${prior.reviewer} already ${DECIDED[priorDecision.action] ?? priorDecision.action} this tool call at ${priorDecision.decidedAt}.`,
    [],
    priorDecision,
  );
}

/** A rule that decides a call (lib/rules/auto-decide.ts): which one, and which version of it. */
export interface DecidingRule {
  id: string;
  version: number;
}

/**
 * Records the decision; the first one for a (run, tool call) wins. A released decision (failed or
 * interrupted) is taken over by the next one, which is again first-wins. A decline's `suggestion`
 * (lib/suggestions) is written with it, in the same statement or transaction: only the winner's
 * exists, and a reviewer who loses writes nothing.
 */
export async function recordDecision(
  db: Db,
  decision: Decision,
  audit: AuditEntry,
  rule?: DecidingRule,
  suggestion?: SuggestionRow,
): Promise<ToolCallDecision> {
  const now = new Date();
  const fields = decisionFields(decision, audit, rule, now);
  // The decision with its audit entry (and suggestion), or none: one transaction of raw statements (as transition's).
  // An existing decision of the call leaves the INSERT without effect, and nothing is written.
  const created: ToolCallDecision = { id: randomUUID(), runId: decision.runId, toolCallId: decision.toolCallId, ...fields };
  const auditRecorded: AuditEntry = { ...audit, outcome: "recorded", decisionId: created.id };
  const recorded = isPostgresClient(db)
    ? (await retriedOnConflict(() => writtenBy(db, recordInOneStatement(created, auditRecorded, now, suggestion)))) === 1
    : await statementTransaction(db, async (tx) => {
        if ((await tx.execute(decisionInsert(created))) !== 1) return false;
        await tx.execute(auditInsert(auditRecorded, now));
        if (suggestion) await tx.execute(suggestionInsert(suggestion));
        return true;
      });
  if (recorded) return created;
  const key = { runId: decision.runId, toolCallId: decision.toolCallId };
  const tookOver = await db.$transaction(async (tx) => {
    const released = await tx.toolCallDecision.findUnique({ where: { runId_toolCallId: key } });
    if (released?.state !== "released") return null;
    const unconfirmed = riskNotConfirmed(released, decision);
    if (unconfirmed) return unconfirmed;
    const { count } = await tx.toolCallDecision.updateMany({ where: { ...key, state: "released" }, data: fields });
    if (count === 0) return null;
    const taken = await tx.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: key } });
    await replaceSuggestion(tx, key, suggestion);
    const message =
      released.error === INTERRUPTED && !declinesCall(decision.action)
        ? `Decided again after an interrupted decision by ${released.reviewer}; the reviewer confirmed that the tool may already have run and that this may repeat its effect.`
        : "Decided again after an earlier decision was released.";
    await appendAudit(tx, { ...audit, outcome: "recorded", decisionId: taken.id, message }, now);
    return taken;
  });
  if (tookOver instanceof DecisionError) {
    await appendAudit(db, { ...audit, outcome: "refused", code: tookOver.code, message: tookOver.message });
    throw tookOver;
  }
  if (tookOver) return tookOver;
  const prior = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: key } });
  const conflict = alreadyDecided(prior);
  await appendAudit(db, { ...audit, outcome: "conflict", code: conflict.code, message: conflict.message, decisionId: prior.id });
  throw conflict;
}

type DecisionWriter = Pick<Db, "toolCallDecision" | "auditEvent">;

/**
 * Writes a new decision and its `recorded` audit entry with `tx`, inside the caller's transaction:
 * a duplicate (run, tool call) fails on the unique key (P2002), so the first one wins. The approval
 * that completes a call's required approvals (approvals.ts) records the decision this way, in the
 * same transaction as itself.
 */
export async function createDecision(
  tx: DecisionWriter,
  decision: Decision,
  audit: AuditEntry,
  rule: DecidingRule | undefined,
  now: Date,
): Promise<ToolCallDecision> {
  const id = randomUUID();
  const created = await tx.toolCallDecision.create({
    data: { id, runId: decision.runId, toolCallId: decision.toolCallId, ...decisionFields(decision, audit, rule, now) },
  });
  await appendAudit(tx, { ...audit, outcome: "recorded", decisionId: id }, now);
  return created;
}

function decisionFields(decision: Decision, audit: AuditEntry, rule: DecidingRule | undefined, now: Date) {
  return {
    action: decision.action,
    state: "recorded",
    reviewer: audit.reviewer,
    agentId: audit.agentId!,
    threadId: audit.threadId ?? null,
    resourceId: audit.resourceId ?? null,
    toolName: audit.toolName ?? null,
    reason: reasonOf(decision) ?? null,
    resumeData: decision.action === "resume" ? JSON.stringify(decision.resumeData) : null,
    answer: null,
    error: null,
    attempts: 0,
    toolRanAt: null,
    batchId: audit.batchId ?? null,
    via: audit.via ?? null,
    argsDigest: audit.argsDigest ?? null,
    expiryMode: decision.action === "expire" ? (decision.mode ?? "decline") : null,
    ruleId: rule?.id ?? null,
    ruleVersion: rule?.version ?? null,
    leaseUntil: new Date(now.getTime() + decisionLeaseMs()),
    decidedAt: now,
    updatedAt: now,
  };
}

/**
 * Approving or resuming a call whose last decision was interrupted may run its tool a second time:
 * the reviewer must say they know (`confirmMayHaveRun`). A decline never runs the tool. Checked
 * when the released decision is taken over, so a first decision costs no extra read.
 */
function riskNotConfirmed(released: ToolCallDecision, decision: Decision): DecisionError | null {
  if (released.error !== INTERRUPTED || declinesCall(decision.action) || ("confirmMayHaveRun" in decision && decision.confirmMayHaveRun)) {
    return null;
  }
  const prior = describePrior(released);
  return new DecisionError(
    "confirmation_required",
    `The server stopped while ${released.reviewer} was ${DECIDING[prior.action]} this call (${prior.decidedAt}): its tool may already have run. ` +
      `Check its effect, then confirm that ${DECIDING[decision.action]} again may repeat it.`,
    [],
    prior,
  );
}

/**
 * Moves a decision from one state to another if nobody else moved it first; audits the move, and
 * announces it once the decision is settled. A move with nothing to write beside it (recorded →
 * applying, right before the agent is asked) is one conditional UPDATE, atomic on its own; a move
 * with its audit entry and event is one transaction (on PostgreSQL, one statement: a round trip
 * where the transaction took six). All are raw statements, compiled once per
 * SQLite connection (executeStatement, statementTransaction): every decision makes these moves, and
 * the Prisma client's work per query and per transaction cost more than the SQL.
 */
export async function transition(
  db: Db,
  decision: ToolCallDecision,
  from: DecisionState,
  to: DecisionState,
  changes: DecisionChanges,
  audit?: DecisionAudit,
): Promise<boolean> {
  const now = new Date();
  const move = moveStatement(decision, from, to, changes, now);
  if (!audit && !SETTLED.has(to)) return (await executeStatement(db, move)) === 1;
  if (isPostgresClient(db)) {
    const event = SETTLED.has(to)
      ? (after: Sql) => unmailedEventCtes(settledEventOf(decision, to), decidedEvent(decision, to, changes), now, after)
      : undefined;
    return (await writtenBy(db, moveInOneStatement(move, audit && auditOf(decision, audit), event, now))) === 1;
  }
  return statementTransaction(db, async (tx) => {
    if ((await tx.execute(move)) !== 1) return false;
    if (audit) await tx.execute(auditInsert(auditOf(decision, audit), now));
    if (SETTLED.has(to)) await emitUnmailedEvent(tx, settledEventOf(decision, to), decidedEvent(decision, to, changes), now);
    return true;
  });
}

/** The states in which a decision is announced (`call.decided`): it was carried out, failed, or let go. */
const SETTLED = new Set<DecisionState>(["applied", "failed", "released"]);

/** The agent reported the tool's result: from now on the tool has run, whatever happens to us. */
export async function noteToolRan(db: Db, decision: ToolCallDecision): Promise<void> {
  await executeStatement(db, toolRanStatement(decision, new Date()));
  failpoint("after-tool-result");
}

/** What an audit entry about a recorded decision says beyond the decision itself. */
export type DecisionAudit = Pick<AuditEntry, "outcome"> & Partial<Pick<AuditEntry, "code" | "message" | "answer">>;

/** An audit entry about `decision`: who decided what, on which call, plus how it went. */
export function auditOf(decision: ToolCallDecision, audit: DecisionAudit): AuditEntry {
  return {
    reviewer: decision.reviewer,
    action: decision.action,
    runId: decision.runId,
    toolCallId: decision.toolCallId,
    agentId: decision.agentId,
    threadId: decision.threadId,
    resourceId: decision.resourceId,
    toolName: decision.toolName,
    reason: decision.reason,
    decisionId: decision.id,
    batchId: decision.batchId,
    via: decision.via as AuditEntry["via"],
    argsDigest: decision.argsDigest,
    ...audit,
  };
}
