/** Plain, serialisable shapes of runs for the browser (dates as ISO strings). */
import type { CallDecisionState } from "../decisions/types.ts";
import type { QueueSort } from "../list-params.ts";
import type { LinkProblem } from "../link-problems.ts";
import type { Risk } from "../risk.ts";
import type { ConsoleRun } from "../runs/list-suspended-runs.ts";
import type { PendingToolCall, RunDetail } from "../runs/run-detail.ts";
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";

/**
 * A pending call as the console shows it: the contract's call, plus its decision state: `inFlight`
 * while somebody's decision is being carried out (nobody else can decide it meanwhile),
 * `interrupted` when its last decision was cut short by a server stop (its tool may have run).
 */
export type ToolCallDto<Call extends AgentRunToolCall = AgentRunToolCall> = Call &
  CallDecisionState & {
    assignee?: AssigneeDto;
    /** When the call's expiry rule expires it (the queue only: lib/queue/expiry-times.ts). */
    expiresAt?: string;
    /** The risk of the rule that matched the call when it started waiting; absent: unrated (the queue only: lib/queue/risks.ts). */
    risk?: Risk;
  };

/** Who a call (or a thread) is assigned to (lib/assignments/assignments.ts). */
export interface AssigneeDto {
  id: string;
  name: string;
  email: string;
  /** A call's: whether the assignment is the call's own or its thread's. */
  via?: "call" | "thread";
  assignedBy: string;
  assignedAt: string;
  /** The call's agent lets only the assignee decide: everyone else is refused. */
  exclusive?: boolean;
}

export type RunDto = Omit<ConsoleRun, "suspendedAt" | "toolCalls"> & { suspendedAt: string; toolCalls: ToolCallDto[] };
export type RunDetailDto = Omit<RunDetail, "suspendedAt" | "createdAt" | "toolCalls"> & {
  suspendedAt: string;
  createdAt: string;
  toolCalls: ToolCallDto<PendingToolCall>[];
};

/** An agent (or workflow) the console serves: the owner of runs, as filters and names show it. */
export interface AgentDto {
  /** The agent's id; a workflow's owner key ("workflow:<id>"). */
  id: string;
  name: string;
  description?: string;
  kind: "agent" | "workflow";
}

export interface RunsPageDto {
  runs: RunDto[];
  total: number;
  /** 1-based. */
  page: number;
  perPage: number;
  pageCount: number;
}

/** One thread of the review queue: its matching calls (the first of them shown) and how long they wait. */
export interface ThreadDto {
  /** The thread's id, or "" for runs without a thread. */
  threadKey: string;
  /** Matching pending calls in the thread, and how many of them are overdue. */
  calls: number;
  overdueCalls: number;
  oldestSuspendedAt: string;
  /** Whom the thread itself is assigned to (its calls may have assignees of their own). */
  assignee?: AssigneeDto;
  /**
   * The thread's first matching runs, oldest first; fewer calls than `calls` when the thread is long.
   * Their calls come without `args` / `suspendPayload` (GET /api/runs and the run's detail have them).
   */
  runs: RunDto[];
}

/** A page of the review queue: whole threads, `perPage` of them. */
export interface QueuePageDto {
  threads: ThreadDto[];
  threadTotal: number;
  callTotal: number;
  /** 1-based. */
  page: number;
  perPage: number;
  pageCount: number;
  sort: QueueSort;
  /** The review target of calls without a risk: they are overdue when waiting longer. */
  slaMinutes: number;
  /** Each risk's review target in minutes: a call with a risk is overdue against its own. */
  riskTargets: Record<Risk, number>;
}

/** A page of the review queue, with the URL parameters the server ignored and why. */
export interface RunsViewDto extends QueuePageDto {
  problems: LinkProblem[];
}

type DecisionStates = Map<string, Map<string, CallDecisionState>>;

function withDecisionStates<Call extends AgentRunToolCall>(runId: string, calls: Call[], states: DecisionStates): ToolCallDto<Call>[] {
  const found = states.get(runId);
  if (!found) return calls;
  return calls.map((call) => {
    const state = call.toolCallId ? found.get(call.toolCallId) : undefined;
    return state ? { ...call, ...state } : call;
  });
}

export function toRunDto(run: ConsoleRun, states: DecisionStates = new Map()): RunDto {
  return { ...run, suspendedAt: run.suspendedAt.toISOString(), toolCalls: withDecisionStates(run.runId, run.toolCalls, states) };
}

export function toRunDetailDto(run: RunDetail, states: DecisionStates = new Map()): RunDetailDto {
  return {
    ...run,
    suspendedAt: run.suspendedAt.toISOString(),
    createdAt: run.createdAt.toISOString(),
    toolCalls: withDecisionStates(run.runId, run.toolCalls, states),
  };
}
