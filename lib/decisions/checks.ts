/**
 * What a decision must pass before it is recorded: the run waits on this very call, of this kind,
 * owned by an agent (or workflow) this console serves; resume data satisfies the tool's own schema. (A call whose
 * last decision was interrupted needs the reviewer's confirmation: ledger.ts checks it on take-over.)
 */
import { argsDigestOf } from "../audit/args-digest.ts";
import { appendAudit, type AuditCredential, type AuditEntry, type DecisionVia } from "../audit/log.ts";
import type { Db } from "../db/client.ts";
import type { ConsoleRun } from "../runs/list-suspended-runs.ts";
import { findSuspendedRun, getSuspendedRun } from "../runs/run-detail.ts";
import { idTextProblem } from "../safe-text.ts";
import { AGENT_LOOP_WORKFLOWS, type AgentRunToolCall } from "@agent-approvals/mastra-store";
import { humanizeIssues } from "./issue-english.ts";
import { issuesSentence, type IssueLike } from "./issues.ts";
import { alreadyDecided } from "./ledger.ts";
import { LIMITS } from "./limits.ts";
import { isMarkExpiry } from "./mark-expiry.ts";
import { resumeSchemaOf, type RunOwner } from "./owners.ts";
import { decidedOutside } from "./outside.ts";
import { DecisionError, type Decision } from "./types.ts";

/** Why there is nothing to decide: somebody decided first, or the run/call never existed. */
export async function refuseAsDecidedOrMissing(
  db: Db,
  decision: Decision,
  run: ConsoleRun | undefined,
  audit: AuditEntry,
  databaseUrl: string,
): Promise<never> {
  const prior = await db.toolCallDecision.findUnique({
    where: { runId_toolCallId: { runId: decision.runId, toolCallId: decision.toolCallId } },
  });
  if (prior && prior.state !== "released") {
    // The run may be gone already: the earlier decision still knows whose call it was.
    Object.assign(audit, {
      agentId: prior.agentId,
      threadId: prior.threadId,
      resourceId: prior.resourceId,
      toolName: prior.toolName,
      decisionId: prior.id,
    });
    // A mark expiry stops nobody else: once the call was decided elsewhere too, the reviewer hears both.
    throw (
      (isMarkExpiry(prior) && (await decidedOutside(db, decision.runId, decision.toolCallId, prior.decidedAt))) || alreadyDecided(prior)
    );
  }
  if (!run) {
    if (await isDelegatedInnerRun(db, decision.runId)) {
      throw new DecisionError(
        "run_not_found",
        `Run "${decision.runId}" is a sub-agent's run inside a supervisor's run: decide the supervisor's run, which continues the sub-agent (continued on its own, the supervisor would wait forever).`,
      );
    }
    throw (
      (await decidedOutside(db, decision.runId, decision.toolCallId)) ??
      new DecisionError("run_not_found", `No suspended run "${decision.runId}": it does not exist or was already decided.`)
    );
  }
  await refuseIfNotReached(decision, run, audit, databaseUrl);
  throw (
    (await decidedOutside(db, decision.runId, decision.toolCallId)) ??
    new DecisionError("tool_call_not_pending", `Run "${decision.runId}" is not waiting on tool call "${decision.toolCallId}".`)
  );
}

/** A sub-agent's inner run that a supervisor's run waits on (set aside by packages/mastra-store/src/delegations.ts). */
async function isDelegatedInnerRun(db: Db, runId: string): Promise<boolean> {
  const row = await db.workflowSnapshot.findFirst({
    where: { runId, workflowName: { in: [...AGENT_LOOP_WORKFLOWS] }, status: "suspended", agentId: null },
    select: { runId: true },
  });
  return row !== null;
}

/**
 * A call the model made in the same step as the pending one, which Mastra has not reached yet: it
 * runs a step's calls one at a time, in order, so this call can be decided only after the one before
 * it. Refused before anything is recorded or sent (Mastra itself would throw), naming that call.
 */
async function refuseIfNotReached(decision: Decision, run: ConsoleRun, audit: AuditEntry, databaseUrl: string): Promise<void> {
  const detail = await getSuspendedRun(run.runId, databaseUrl);
  const queued = detail?.queuedCalls.find((call) => call.toolCallId === decision.toolCallId);
  if (!queued) return;
  // The history names the tool of the refused attempt, as for any other call.
  audit.toolName = queued.toolName;
  const first = detail!.toolCalls.find((call) => call.toolCallId === queued.behind);
  throw new DecisionError(
    "call_not_reached",
    `Tool call "${decision.toolCallId}" (${queued.toolName ?? "a tool"}) cannot be decided yet: the agent carries out the calls of one step in order, and waits on "${queued.behind}" (${first?.toolName ?? "a tool"}) first. Decide that call; this one becomes decidable then.`,
  );
}

/**
 * The call must still wait on the arguments the reviewer was shown (the request's argsDigest), else
 * nothing is decided. The digest the decision then carries (and its audit entries) is of what the
 * run waits on now: "shown" when the request proved it saw the same, "read" when it sent none.
 */
export function checkArguments(call: AgentRunToolCall, decision: Decision, audit: AuditEntry): void {
  const current = argsDigestOf(call);
  if (decision.argsDigest !== undefined && decision.argsDigest !== current) {
    throw new DecisionError(
      "arguments_changed",
      `The call no longer waits on the arguments you were shown (their digest was ${decision.argsDigest.slice(0, 12)}…, now ${current.slice(0, 12)}…): nothing was decided. Open the call again to see what it waits on now.`,
    );
  }
  audit.argsDigest = current;
  audit.argsDigestFrom = decision.argsDigest === undefined ? "read" : "shown";
}

export function checkKind(call: AgentRunToolCall, decision: Decision): void {
  // Marking a call expired tells the agent nothing: an input request can be marked as well as an approval.
  if (decision.action === "expire" && decision.mode === "mark") return;
  const wantsApproval = decision.action !== "resume";
  if (call.requiresApproval === wantsApproval) return;
  throw new DecisionError(
    "wrong_kind",
    call.requiresApproval
      ? `Tool call "${decision.toolCallId}" waits for approval: approve or decline it.`
      : call.step
        ? `Workflow step "${call.step.join(" › ")}" waits for data: resume it with data (a step cannot be approved or declined).`
        : `Tool call "${decision.toolCallId}" waits for data: resume it with data.`,
  );
}

/** Resume data must satisfy the schema the tool (or workflow step) itself declares (Mastra checks it again). */
export async function checkResumeData(owner: RunOwner, call: AgentRunToolCall, runId: string, resumeData: unknown): Promise<void> {
  const schema = await resumeSchemaOf(owner, call, runId);
  if (!schema) return;
  const result = await schema["~standard"].validate(resumeData);
  if (!result.issues?.length) return;
  // The same words the resume editor shows (issues.ts), every problem named, unknown fields too.
  const issues = humanizeIssues(result.issues as ReadonlyArray<IssueLike>);
  throw new DecisionError(
    "invalid_resume_data",
    `The resume data does not match what ${call.toolName} expects: ${issuesSentence(issues)}`,
    issues,
  );
}

export function describeRun(run: ConsoleRun | undefined, call: AgentRunToolCall | undefined): Partial<AuditEntry> {
  return {
    agentId: run?.agentId,
    threadId: run?.threadId,
    resourceId: run?.resourceId,
    // A delegated suspend() is named by Mastra after the supervisor's `agent-<name>` tool: record the tool that waits.
    toolName: call?.path?.at(-1) ?? call?.toolName,
    args: call?.requiresApproval ? call.args : undefined,
  };
}

/**
 * Audits a decision refused for a reason of its own before decide() ran (a trusted rule the call does
 * not allow, a suggestion that does not fit the tool), with the run's facts as decide() records them.
 */
export async function auditRefusedBeforeDecide(
  db: Pick<Db, "auditEvent">,
  run: ConsoleRun,
  call: AgentRunToolCall,
  attempt: AuditCredential & {
    reviewer: string;
    via?: DecisionVia;
    action: string;
    runId: string;
    toolCallId: string;
    reason?: string | null;
  },
  error: DecisionError,
): Promise<void> {
  await appendAudit(db, { ...describeRun(run, call), ...attempt, outcome: "refused", code: error.code, message: error.message });
}

/**
 * Whose call a refused request named, when the ids name one: the waiting run, else the call's
 * decision. So the history shows the agent and tool of an attempt refused before it reached
 * decide() (a bad input, a role that may not decide). At most two indexed reads; nothing for ids no
 * call can have.
 */
export async function describeNamedCall(db: Db, runId: string, toolCallId: string, databaseUrl: string): Promise<Partial<AuditEntry>> {
  const usable = (id: string) => id.trim() !== "" && id.length <= LIMITS.idLength && !idTextProblem(id);
  if (!usable(runId)) return {};
  const run = await findSuspendedRun(runId, databaseUrl);
  const call = run?.toolCalls.find((candidate) => candidate.toolCallId === toolCallId);
  if (run) return { ...describeRun(run, call), args: undefined };
  if (!usable(toolCallId)) return {};
  const decided = await db.toolCallDecision.findUnique({ where: { runId_toolCallId: { runId, toolCallId } } });
  return decided
    ? { agentId: decided.agentId, threadId: decided.threadId, resourceId: decided.resourceId, toolName: decided.toolName }
    : {};
}
