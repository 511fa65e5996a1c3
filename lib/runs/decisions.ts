/**
 * The decision logic: the only code that continues a suspended run. Every action (approve, decline,
 * resume) and recovery come through here.
 *
 * 1. Check the request against the database: the run exists and is suspended, waits on exactly this
 *    tool call, of this kind; the owning agent is resolved from the stored snapshot, never from the
 *    caller; resume data satisfies the tool's own resumeSchema. Anything else is refused (audited).
 * 2. Record the decision before anything is sent to the agent, under a uniqueness guarantee on
 *    (runId, toolCallId): the first decision wins, every other gets `already_decided` naming who
 *    decided what and when. The tool can therefore run once, across tabs, reviewers and servers.
 * 3. Carry it out through the real agent, holding a lease; record applied / failed / released.
 *
 * States: recorded → applying → applied | failed | released. `released` means the call is
 * decidable again (the agent failed before the tool ran, or the server stopped mid-way). While the
 * agent runs, the moment it reports the tool's result is noted on the decision (`toolRanAt`): from
 * then on the tool has run, and nothing releases the call again. A decision whose lease expired is
 * taken over by `recoverDecisions`:
 *  - never sent: carried out;
 *  - the tool ran (`toolRanAt`), or the run has moved past the call (it waits on another call, or
 *    Mastra deleted its outer snapshot because it finished): applied, and what Mastra left of the
 *    run (a snapshot still "suspended" on this call, an orphaned inner snapshot) is settled;
 *  - sent, the call still pending, no tool result seen: a decline is carried out again (it never
 *    runs a tool); an approval or resume is released as INTERRUPTED. The tool may have run (Mastra
 *    writes nothing between running the tool and finishing the run, so the store cannot tell):
 *    the queue and the run page say so, and deciding it again needs `confirmMayHaveRun`.
 * Every transition is one conditional UPDATE plus its audit row, in one transaction.
 */
import { randomUUID } from "node:crypto";
import type { Agent } from "@mastra/core/agent";
import { appendAudit, type AuditEntry } from "../audit/log.ts";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { failpoint } from "../failpoint.ts";
import { findAgentById, getMastra } from "../mastra/index.ts";
import { findSuspendedRun } from "./run-detail.ts";
import type { ConsoleRun } from "./list-suspended-runs.ts";
import { AGENT_LOOP_WORKFLOWS, type AgentRunToolCall } from "../store/snapshot-reader.ts";

type Target = { runId: string; toolCallId: string; agentId?: string };
/** The reviewer saw that the call was interrupted and that its tool may already have run. */
type RiskConfirmation = { confirmMayHaveRun?: boolean };

export type Decision =
  | ({ action: "approve" } & Target & RiskConfirmation)
  | ({ action: "decline"; reason?: string } & Target)
  | ({ action: "resume"; resumeData: unknown } & Target & RiskConfirmation);

/** `error` of a decision released because its server stopped while the agent carried it out. */
export const INTERRUPTED = "interrupted";

export type DecisionErrorCode =
  | "run_not_found"
  | "tool_call_not_pending"
  | "wrong_kind"
  | "unknown_agent"
  | "wrong_agent"
  | "invalid_resume_data"
  | "already_decided"
  | "confirmation_required"
  | "agent_failed";

/** Who decided a call first, for the reviewers who came second. */
export interface PriorDecision {
  reviewer: string;
  action: Decision["action"];
  state: DecisionState;
  decidedAt: string;
}

export class DecisionError extends Error {
  constructor(
    readonly code: DecisionErrorCode,
    message: string,
    readonly issues: Array<{ path: string; message: string }> = [],
    readonly priorDecision?: PriorDecision,
  ) {
    super(message);
    this.name = "DecisionError";
  }
}

export type DecisionState = "recorded" | "applying" | "applied" | "failed" | "released";

export interface DecisionOutcome {
  action: Decision["action"];
  runId: string;
  toolCallId: string;
  agentId: string;
  /** What the agent said after the decision. */
  answer: string;
  /** The run stopped again for another call (it stays in the list), or it finished. */
  runState: "completed" | "waiting-again";
}

/** How long a process may hold a decision without renewing it before recovery takes over. */
export function decisionLeaseMs(): number {
  const configured = Number(process.env.DECISION_LEASE_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : 60_000;
}

export async function decide(
  decision: Decision,
  { reviewer, databaseUrl = databaseUrlFromEnv() }: { reviewer: string; databaseUrl?: string },
): Promise<DecisionOutcome> {
  const db = await getDb(databaseUrl);
  const audit: AuditEntry = {
    reviewer,
    action: decision.action,
    outcome: "refused",
    runId: decision.runId,
    toolCallId: decision.toolCallId,
    reason: decision.action === "decline" ? decision.reason : undefined,
    resumeData: decision.action === "resume" ? decision.resumeData : undefined,
  };
  let run: ConsoleRun | undefined;
  let call: AgentRunToolCall | undefined;
  let agent: Agent;
  try {
    run = (await findSuspendedRun(decision.runId, databaseUrl)) ?? undefined;
    call = run?.toolCalls.find((candidate) => candidate.toolCallId === decision.toolCallId);
    Object.assign(audit, describeRun(run, call));
    if (!run || !call) await refuseAsDecidedOrMissing(db, decision, run, audit);
    checkKind(call!, decision);
    if (decision.agentId && decision.agentId !== run!.agentId) {
      throw new DecisionError(
        "wrong_agent",
        `Run "${decision.runId}" belongs to agent "${run!.agentId}", not "${decision.agentId}": it can only be continued by its owner.`,
      );
    }
    agent = await resolveAgent(run!.agentId, databaseUrl);
    if (decision.action === "resume") await checkResumeData(agent, call!, decision.resumeData);
    await checkRiskConfirmed(db, decision);
  } catch (error) {
    if (error instanceof DecisionError) {
      await appendAudit(db, {
        ...audit,
        outcome: error.code === "already_decided" ? "conflict" : "refused",
        code: error.code,
        message: error.message,
      });
    }
    throw error;
  }

  const recorded = await recordDecision(db, decision, audit);
  failpoint("after-record");
  return carryOut(db, recorded, agent);
}

/** Why there is nothing to decide: somebody decided first, or the run/call never existed. */
async function refuseAsDecidedOrMissing(db: Db, decision: Decision, run: ConsoleRun | undefined, audit: AuditEntry): Promise<never> {
  const prior = await db.toolCallDecision.findUnique({
    where: { runId_toolCallId: { runId: decision.runId, toolCallId: decision.toolCallId } },
  });
  if (prior && prior.state !== "released") {
    // The run may be gone already: the earlier decision still knows whose call it was.
    Object.assign(audit, { agentId: prior.agentId, threadId: prior.threadId, resourceId: prior.resourceId, toolName: prior.toolName, decisionId: prior.id });
    throw alreadyDecided(prior);
  }
  if (!run) {
    throw new DecisionError("run_not_found", `No suspended run "${decision.runId}": it does not exist or was already decided.`);
  }
  throw new DecisionError("tool_call_not_pending", `Run "${decision.runId}" is not waiting on tool call "${decision.toolCallId}".`);
}

function describePrior(prior: ToolCallDecision): PriorDecision {
  return {
    reviewer: prior.reviewer,
    action: prior.action as Decision["action"],
    state: prior.state as DecisionState,
    decidedAt: prior.decidedAt.toISOString(),
  };
}

function alreadyDecided(prior: ToolCallDecision): DecisionError {
  const priorDecision = describePrior(prior);
  const verb = { approve: "approved", decline: "declined", resume: "resumed" }[priorDecision.action] ?? priorDecision.action;
  return new DecisionError(
    "already_decided",
    `${prior.reviewer} already ${verb} this tool call at ${priorDecision.decidedAt}.`,
    [],
    priorDecision,
  );
}

/**
 * Approving or resuming a call whose last decision was interrupted may run its tool a second time:
 * the reviewer must say they know (`confirmMayHaveRun`). A decline never runs the tool.
 */
async function checkRiskConfirmed(db: Db, decision: Decision): Promise<void> {
  if (decision.action === "decline" || decision.confirmMayHaveRun) return;
  const prior = await db.toolCallDecision.findUnique({
    where: { runId_toolCallId: { runId: decision.runId, toolCallId: decision.toolCallId } },
  });
  if (prior?.state !== "released" || prior.error !== INTERRUPTED) return;
  const priorDecision = describePrior(prior);
  throw new DecisionError(
    "confirmation_required",
    `The server stopped while ${prior.reviewer} was ${ING[priorDecision.action]} this call (${priorDecision.decidedAt}): its tool may already have run. ` +
      `Check its effect, then confirm that ${decision.action === "approve" ? "approving" : "resuming"} again may repeat it.`,
    [],
    priorDecision,
  );
}

const ING: Record<Decision["action"], string> = { approve: "approving", decline: "declining", resume: "resuming" };

function checkKind(call: AgentRunToolCall, decision: Decision): void {
  const wantsApproval = decision.action !== "resume";
  if (call.requiresApproval === wantsApproval) return;
  throw new DecisionError(
    "wrong_kind",
    call.requiresApproval
      ? `Tool call "${decision.toolCallId}" waits for approval: approve or decline it.`
      : `Tool call "${decision.toolCallId}" waits for data: resume it with data.`,
  );
}

async function resolveAgent(agentId: string, databaseUrl: string): Promise<Agent> {
  const agent = findAgentById(await getMastra(databaseUrl), agentId);
  if (!agent) throw new DecisionError("unknown_agent", `This run belongs to agent "${agentId}", which this console does not serve.`);
  return agent;
}

/** Resume data must satisfy the schema the tool itself declares (Mastra checks it again). */
async function checkResumeData(agent: Agent, call: AgentRunToolCall, resumeData: unknown): Promise<void> {
  const tools = (await agent.listTools()) as Record<string, { resumeSchema?: StandardSchema }>;
  const schema = call.toolName ? tools[call.toolName]?.resumeSchema : undefined;
  if (!schema?.["~standard"]) return;
  const result = await schema["~standard"].validate(resumeData);
  if (!result.issues?.length) return;
  const issues = result.issues.map((issue) => ({
    path: (issue.path ?? []).map((part) => (typeof part === "object" ? String(part.key) : String(part))).join("."),
    message: issue.message,
  }));
  throw new DecisionError(
    "invalid_resume_data",
    `The resume data does not match what ${call.toolName} expects: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
    issues,
  );
}

type StandardIssue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };
interface StandardSchema {
  "~standard": { validate(value: unknown): { issues?: ReadonlyArray<StandardIssue> } | Promise<{ issues?: ReadonlyArray<StandardIssue> }> };
}

function describeRun(run: ConsoleRun | undefined, call: AgentRunToolCall | undefined): Partial<AuditEntry> {
  return {
    agentId: run?.agentId,
    threadId: run?.threadId,
    resourceId: run?.resourceId,
    toolName: call?.toolName,
    args: call?.requiresApproval ? call.args : undefined,
  };
}

/**
 * Records the decision; the first one for a (run, tool call) wins. A released decision (failed or
 * interrupted) is taken over by the next one, which is again first-wins.
 */
async function recordDecision(db: Db, decision: Decision, audit: AuditEntry): Promise<ToolCallDecision> {
  const now = new Date();
  const fields = {
    action: decision.action,
    state: "recorded",
    reviewer: audit.reviewer,
    agentId: audit.agentId!,
    threadId: audit.threadId ?? null,
    resourceId: audit.resourceId ?? null,
    toolName: audit.toolName ?? null,
    reason: decision.action === "decline" ? (decision.reason ?? null) : null,
    resumeData: decision.action === "resume" ? JSON.stringify(decision.resumeData) : null,
    answer: null,
    error: null,
    attempts: 0,
    toolRanAt: null,
    leaseUntil: new Date(now.getTime() + decisionLeaseMs()),
    decidedAt: now,
    updatedAt: now,
  };
  const id = randomUUID();
  try {
    return await db.$transaction(async (tx) => {
      const created = await tx.toolCallDecision.create({
        data: { id, runId: decision.runId, toolCallId: decision.toolCallId, ...fields },
      });
      await appendAudit(tx, { ...audit, outcome: "recorded", decisionId: id }, now);
      return created;
    });
  } catch (error) {
    if ((error as { code?: string }).code !== "P2002") throw error;
  }
  const key = { runId: decision.runId, toolCallId: decision.toolCallId };
  const tookOver = await db.$transaction(async (tx) => {
    const released = await tx.toolCallDecision.findUnique({ where: { runId_toolCallId: key } });
    if (released?.state !== "released") return null;
    const { count } = await tx.toolCallDecision.updateMany({ where: { ...key, state: "released" }, data: fields });
    if (count === 0) return null;
    const taken = await tx.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: key } });
    const message =
      released.error === INTERRUPTED && decision.action !== "decline"
        ? `Decided again after an interrupted decision by ${released.reviewer}; the reviewer confirmed that the tool may already have run and that this may repeat its effect.`
        : "Decided again after an earlier decision was released.";
    await appendAudit(tx, { ...audit, outcome: "recorded", decisionId: taken.id, message }, now);
    return taken;
  });
  if (tookOver) return tookOver;
  const prior = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: key } });
  const conflict = alreadyDecided(prior);
  await appendAudit(db, { ...audit, outcome: "conflict", code: conflict.code, message: conflict.message, decisionId: prior.id });
  throw conflict;
}

/** Moves a decision from one state to another if nobody else moved it first; audits the move. */
async function transition(
  db: Db,
  decision: ToolCallDecision,
  from: DecisionState,
  to: DecisionState,
  changes: { answer?: string; error?: string; attempts?: number; leaseUntil?: Date; toolRanAt?: Date },
  audit?: DecisionAudit,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const now = new Date();
    const { count } = await tx.toolCallDecision.updateMany({
      where: { id: decision.id, state: from },
      data: { state: to, updatedAt: now, ...changes },
    });
    if (count === 1 && audit) await appendAudit(tx, auditOf(decision, audit), now);
    return count === 1;
  });
}

/** Sends a recorded decision to the agent and records how it ended. */
async function carryOut(db: Db, decision: ToolCallDecision, agent: Agent): Promise<DecisionOutcome> {
  const lease = decisionLeaseMs();
  const applying = await transition(db, decision, "recorded", "applying", {
    attempts: decision.attempts + 1,
    leaseUntil: new Date(Date.now() + lease),
  });
  if (!applying) {
    throw alreadyDecided(await db.toolCallDecision.findUniqueOrThrow({ where: { id: decision.id } }));
  }
  // A slow agent (a real model) keeps the lease; a dead process stops renewing it.
  const renewal = setInterval(() => {
    db.toolCallDecision
      .updateMany({ where: { id: decision.id, state: "applying" }, data: { leaseUntil: new Date(Date.now() + lease) } })
      .catch(() => undefined);
  }, Math.max(1_000, lease / 3));
  renewal.unref?.();
  try {
    const stream = await continueRun(agent, decision);
    failpoint("after-send");
    const outcome = await readOutcome(stream, decision.toolCallId, () => noteToolRan(db, decision));
    await transition(db, decision, "applying", "applied", { answer: outcome.answer }, { outcome: "applied", answer: outcome.answer });
    return { ...outcome, action: decision.action as Decision["action"], runId: decision.runId, toolCallId: decision.toolCallId, agentId: decision.agentId };
  } catch (error) {
    const failure = agentError(error, decision);
    const toolRan = (await db.toolCallDecision.findUnique({ where: { id: decision.id }, select: { toolRanAt: true } }))?.toolRanAt;
    if (toolRan) {
      // Releasing would let the tool run twice: the decision failed after it was carried out.
      await transition(db, decision, "applying", "failed", { error: failure.message }, {
        outcome: "failed",
        code: failure.code,
        message: `The tool ran, then the agent failed: ${failure.message} The run was settled; it cannot be decided again.`,
      });
      await settleRun(db, decision.runId, decision.toolCallId);
      throw failure;
    }
    const decidableAgain = (await whereIsTheRun(db, decision)) === "pending";
    await transition(
      db,
      decision,
      "applying",
      decidableAgain ? "released" : "failed",
      { error: failure.message },
      {
        outcome: "failed",
        code: failure.code,
        message: decidableAgain ? `${failure.message} The tool call is decidable again.` : failure.message,
      },
    );
    throw failure;
  } finally {
    clearInterval(renewal);
  }
}

/** The agent reported the tool's result: from now on the tool has run, whatever happens to us. */
async function noteToolRan(db: Db, decision: ToolCallDecision): Promise<void> {
  await db.toolCallDecision.updateMany({ where: { id: decision.id, state: "applying" }, data: { toolRanAt: new Date() } });
  failpoint("after-tool-result");
}

function continueRun(agent: Agent, decision: ToolCallDecision) {
  const target = { runId: decision.runId, toolCallId: decision.toolCallId };
  switch (decision.action) {
    case "approve":
      return agent.approveToolCall(target);
    case "decline":
      return agent.declineToolCall({ ...target, reason: decision.reason ?? undefined });
    case "resume":
      return agent.resumeStream(JSON.parse(decision.resumeData ?? "null"), target);
    default:
      throw new Error(`Unknown decision action "${decision.action}"`);
  }
}

/**
 * Reads the continued run to its end (Mastra deletes a finished run's snapshots only then), calling
 * `onToolRan` once when the decided call's tool result arrives.
 */
async function readOutcome(stream: { fullStream: AsyncIterable<unknown> }, toolCallId: string, onToolRan: () => Promise<void>) {
  let answer = "";
  let runState: DecisionOutcome["runState"] = "completed";
  let toolRan = false;
  type Chunk = { type: string; payload?: { text?: string; error?: unknown; toolCallId?: string } };
  for await (const chunk of stream.fullStream as AsyncIterable<Chunk>) {
    if (chunk.type === "text-delta") answer += chunk.payload?.text ?? "";
    else if (chunk.type === "tool-result" && chunk.payload?.toolCallId === toolCallId && !toolRan) {
      toolRan = true;
      await onToolRan();
    }
    else if (chunk.type === "tool-call-approval" || chunk.type === "tool-call-suspended") runState = "waiting-again";
    else if (chunk.type === "error") throw new DecisionError("agent_failed", `The agent failed: ${describe(chunk.payload?.error)}`);
  }
  return { answer, runState };
}

function agentError(error: unknown, decision: Pick<ToolCallDecision, "runId" | "toolCallId">): DecisionError {
  if (error instanceof DecisionError) return error;
  const id = (error as { id?: string }).id;
  if (id === "AGENT_RESUME_NO_SNAPSHOT_FOUND") {
    return new DecisionError("run_not_found", `Run "${decision.runId}" is no longer suspended.`);
  }
  if (id === "AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED") {
    return new DecisionError("tool_call_not_pending", `Tool call "${decision.toolCallId}" is no longer pending.`);
  }
  return new DecisionError("agent_failed", `The agent could not continue the run: ${describe(error)}`);
}


function describe(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
}

/** A call whose last decision was interrupted by a server stop: its tool may already have run. */
export interface InterruptedDecision {
  reviewer: string;
  action: Decision["action"];
  /** When the decision was made. */
  decidedAt: string;
  /** When recovery released it. */
  interruptedAt: string;
}

/** The interrupted calls among `runIds`, keyed by run and then tool call. */
export async function findInterruptedCalls(runIds: string[], databaseUrl: string = databaseUrlFromEnv()) {
  const found = new Map<string, Map<string, InterruptedDecision>>();
  if (runIds.length === 0) return found;
  const rows = await (await getDb(databaseUrl)).toolCallDecision.findMany({
    where: { runId: { in: runIds }, state: "released", error: INTERRUPTED },
    select: { runId: true, toolCallId: true, reviewer: true, action: true, decidedAt: true, updatedAt: true },
  });
  for (const row of rows) {
    const calls = found.get(row.runId) ?? new Map<string, InterruptedDecision>();
    calls.set(row.toolCallId, {
      reviewer: row.reviewer,
      action: row.action as Decision["action"],
      decidedAt: row.decidedAt.toISOString(),
      interruptedAt: row.updatedAt.toISOString(),
    });
    found.set(row.runId, calls);
  }
  return found;
}

/* ---------- recovery ---------- */

export interface RecoveryReport {
  carriedOut: number;
  released: number;
  applied: number;
  failed: number;
}

/**
 * Takes over decisions whose process stopped (lease expired) and ends each in a state the audit log
 * explains. Safe to run from several servers at once: each decision is taken by one of them.
 */
export async function recoverDecisions(databaseUrl: string = databaseUrlFromEnv()): Promise<RecoveryReport> {
  const db = await getDb(databaseUrl);
  const report: RecoveryReport = { carriedOut: 0, released: 0, applied: 0, failed: 0 };
  const stale = await db.toolCallDecision.findMany({
    where: { state: { in: ["recorded", "applying"] }, leaseUntil: { lt: new Date() } },
    orderBy: { decidedAt: "asc" },
    take: 100,
  });
  for (const decision of stale) {
    const lease = new Date(Date.now() + decisionLeaseMs());
    const { count } = await db.toolCallDecision.updateMany({
      where: { id: decision.id, state: decision.state, leaseUntil: decision.leaseUntil },
      data: { leaseUntil: lease, updatedAt: new Date() },
    });
    if (count === 0) continue; // another server took it
    const taken = { ...decision, leaseUntil: lease };
    const from = taken.state as DecisionState;
    const neverSent = from === "recorded";
    const run = await whereIsTheRun(db, taken);

    if (run === "pending" && !taken.toolRanAt && (neverSent || taken.action === "decline")) {
      if (!neverSent) {
        await transition(db, taken, "applying", "recorded", {}, {
          outcome: "recovered",
          message: "The server stopped while declining; a decline never runs the tool, so it is carried out again.",
        });
      } else {
        await appendAudit(
          db,
          auditOf(taken, { outcome: "recovered", message: "The server stopped after recording this decision and before applying it; carrying it out now." }),
        );
      }
      try {
        const agent = await resolveAgent(taken.agentId, databaseUrl);
        await carryOut(db, { ...taken, state: "recorded" }, agent);
        report.carriedOut++;
      } catch {
        report.failed++;
      }
    } else if (run === "pending" && taken.toolRanAt) {
      await transition(db, taken, from, "applied", {}, {
        outcome: "recovered",
        message: `The tool ran (the agent reported its result at ${taken.toolRanAt.toISOString()}) before the server stopped, so the decision was carried out; the agent's answer after it was lost. The run was settled so that its tool cannot run again.`,
      });
      await settleRun(db, taken.runId, taken.toolCallId);
      report.applied++;
    } else if (run === "pending") {
      await transition(db, taken, "applying", "released", { error: INTERRUPTED }, {
        outcome: "interrupted",
        message:
          "The server stopped while the agent was carrying out this decision. The tool may have run; check its effect before deciding again (its idempotency key is the tool call id). The tool call is decidable again, with a confirmation.",
      });
      report.released++;
    } else if (!neverSent && (run === "finished" || run === "moved-on")) {
      await transition(db, taken, from, "applied", {}, {
        outcome: "recovered",
        message:
          run === "finished"
            ? "The run had finished before its server stopped: the decision was carried out (the agent's answer was not kept)."
            : "The run had moved past this call (it waits on another one) before its server stopped: the decision was carried out.",
      });
      if (run === "finished") await settleRun(db, taken.runId, taken.toolCallId);
      report.applied++;
    } else {
      await transition(db, taken, from, "failed", { error: `run ${run}` }, {
        outcome: "failed",
        code: run === "finished" ? "run_not_found" : "tool_call_not_pending",
        message: neverSent
          ? `The run no longer waits on this call (${run}): this decision was never sent to the agent and was not carried out.`
          : `The server stopped mid-decision and the run is ${run}; its snapshot was left as it is.`,
      });
      if (run === "finished") await settleRun(db, taken.runId, taken.toolCallId);
      report.failed++;
    }
  }
  return report;
}

/**
 * Where the decided call's run stands, read from its outer (agent-loop) snapshot, the one Mastra
 * resumes. When a run ends Mastra deletes the outer snapshot first, then the inner one: an outer
 * snapshot that is gone means the run finished, even if an inner one was left behind.
 */
async function whereIsTheRun(db: Db, decision: Pick<ToolCallDecision, "runId" | "toolCallId">): Promise<RunPosition> {
  const outer = await db.workflowSnapshot.findFirst({
    where: { runId: decision.runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } },
    select: { status: true, toolCalls: true },
  });
  if (!outer) return "finished";
  if (outer.status !== "suspended") return `stopped (${outer.status})`;
  return waitsOn(outer.toolCalls, decision.toolCallId) ? "pending" : "moved-on";
}

/** Still waiting on the call; waiting on another call; gone; or stopped in another state. */
type RunPosition = "pending" | "moved-on" | "finished" | `stopped (${string})`;

function waitsOn(toolCalls: string | null, toolCallId: string): boolean {
  return !!toolCalls && (JSON.parse(toolCalls) as AgentRunToolCall[]).some((call) => call.toolCallId === toolCallId);
}

/**
 * Removes what Mastra left of a run that will not continue: its snapshots, when the outer one is
 * gone (an orphaned inner snapshot) or still waits on the call whose tool already ran (resuming it
 * would run the tool again). A run that has moved on to another call is left alone.
 */
async function settleRun(db: Db, runId: string, toolCallId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const outer = await tx.workflowSnapshot.findFirst({
      where: { runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] } },
      select: { status: true, toolCalls: true },
    });
    if (outer && !(outer.status === "suspended" && waitsOn(outer.toolCalls, toolCallId))) return;
    await tx.workflowSnapshot.deleteMany({ where: { runId } });
  });
}

/** What an audit entry about a recorded decision says beyond the decision itself. */
type DecisionAudit = Pick<AuditEntry, "outcome"> & Partial<Pick<AuditEntry, "code" | "message" | "answer">>;

/** An audit entry about `decision`: who decided what, on which call, plus how it went. */
function auditOf(decision: ToolCallDecision, audit: DecisionAudit): AuditEntry {
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
    ...audit,
  };
}

