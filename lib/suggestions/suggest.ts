/**
 * Decline and suggest: Mastra cannot approve a call with other arguments, so the reviewer declines
 * it with a reason that tells the model which arguments to use instead (lib/suggestion-wording.ts),
 * and a one-time suggestion approves the agent's next call of that tool in that thread if it uses
 * exactly those (claim.ts). The arguments must fit the tool's own input schema. The suggestion is
 * recorded with the decline's first-wins record, in its statement (lib/decisions/ledger.ts): when
 * reviewers race, the one whose decision is recorded owns the call's only suggestion and the others
 * write nothing. It is there before the decline is sent (the agent may call again while the decline
 * is carried out) and withdrawn when the decline is refused or the agent fails before continuing.
 */
import type { DecisionVia } from "../audit/log.ts";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { auditRefusedBeforeDecide } from "../decisions/checks.ts";
import { decide } from "../decisions/decide.ts";
import { humanizeIssues } from "../decisions/issue-english.ts";
import { issuesSentence, type IssueLike } from "../decisions/issues.ts";
import { resolveOwner, toolOwner, type RunOwner, type StandardSchema } from "../decisions/owners.ts";
import { AnswerLostError, DecisionError, type DecisionOutcome } from "../decisions/types.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import { canonicalJson, suggestionReason } from "../suggestion-wording.ts";
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import { suggestedToolOf } from "./claim.ts";
import type { SuggestFields } from "./inputs.ts";
import { suggestionRow } from "../decisions/suggestion-record.ts";
import { dropSuggestion } from "./store.ts";

export async function declineWithSuggestion(
  input: SuggestFields,
  { reviewer, via, databaseUrl = databaseUrlFromEnv() }: { reviewer: string; via?: DecisionVia; databaseUrl?: string },
): Promise<DecisionOutcome> {
  const db = await getDb(databaseUrl);
  const { args, reason: note, ...target } = input;
  const run = await findSuspendedRun(target.runId, databaseUrl);
  const call = run?.toolCalls.find((candidate) => candidate.toolCallId === target.toolCallId);
  const decline = { action: "decline" as const, ...target };
  const options = { reviewer, via, databaseUrl };
  // Nothing to suggest for (gone, decided, not an approval, another agent's): decide() refuses it as any decline.
  if (!run || !call || !call.requiresApproval || (target.agentId && target.agentId !== run.agentId)) {
    return decide({ ...decline, reason: note }, options);
  }
  const toolName = suggestedToolOf(call);
  try {
    await checkArguments(await resolveOwner(run.agentId, databaseUrl), call, toolName, args);
  } catch (error) {
    if (error instanceof DecisionError) {
      const attempt = { reviewer, via, action: "decline", runId: target.runId, toolCallId: target.toolCallId, reason: note };
      await auditRefusedBeforeDecide(db, run, call, attempt, error);
    }
    throw error;
  }
  const suggestion = suggestionRow({
    runId: run.runId,
    toolCallId: call.toolCallId!,
    agentId: run.agentId,
    threadId: run.threadId ?? null,
    resourceId: run.resourceId ?? null,
    toolName,
    args: canonicalJson(args),
    suggestedBy: reviewer,
  });
  try {
    return await decide({ ...decline, reason: suggestionReason(toolName, args, note) }, { ...options, suggestion });
  } catch (error) {
    // Recorded, then refused or released: withdrawn (a decision recorded by someone else wrote no suggestion of ours).
    // Lost on its way to a remote server: the decline may have happened, so the suggestion stays (it needs the decline on record).
    if (error instanceof DecisionError && !(error instanceof AnswerLostError)) await dropSuggestion(db, suggestion.id);
    throw error;
  }
}

/** The suggested arguments must satisfy the tool's own input schema (as Mastra would check the agent's call), and differ from the call's. */
async function checkArguments(owner: RunOwner, call: AgentRunToolCall, toolName: string, args: Record<string, unknown>): Promise<void> {
  if (canonicalJson(args) === canonicalJson(call.args ?? {})) {
    throw new DecisionError(
      "invalid_suggestion",
      `These are the arguments ${toolName} was called with: approve the call instead, or change an argument.`,
    );
  }
  const schema = await inputSchemaOf(owner, call);
  if (!schema) return;
  const result = await schema["~standard"].validate(args);
  if (!result.issues?.length) return;
  const issues = humanizeIssues(result.issues as ReadonlyArray<IssueLike>);
  throw new DecisionError(
    "invalid_suggestion",
    `The suggested arguments do not match what ${toolName} expects: ${issuesSentence(issues)}`,
    issues,
  );
}

/** The input schema of the tool a call waits on, from the agent the console serves; none in remote mode (the server's own agent checks the call). */
async function inputSchemaOf(owner: RunOwner, call: AgentRunToolCall): Promise<StandardSchema | undefined> {
  if (owner.kind !== "agent") return undefined;
  const { agent, toolName } = await toolOwner(owner.agent, call);
  const tools = agent ? ((await agent.listTools()) as Record<string, { inputSchema?: unknown }>) : {};
  const schema = toolName ? tools[toolName]?.inputSchema : undefined;
  return typeof (schema as StandardSchema | undefined)?.["~standard"]?.validate === "function" ? (schema as StandardSchema) : undefined;
}
