/** Plain, serialisable shapes of runs for the browser (dates as ISO strings). */
import type { InterruptedDecision } from "../decisions/types.ts";
import type { ConsoleRun } from "../runs/list-suspended-runs.ts";
import type { PendingToolCall, RunDetail } from "../runs/run-detail.ts";
import type { AgentRunToolCall } from "../store/snapshot-reader.ts";

/** A pending call as the console shows it: the contract's call, and whether its tool may already have run. */
export type ToolCallDto<Call extends AgentRunToolCall = AgentRunToolCall> = Call & {
  /** Set when the call's last decision was interrupted by a server stop: its tool may already have run. */
  interrupted?: InterruptedDecision;
};

export type RunDto = Omit<ConsoleRun, "suspendedAt" | "toolCalls"> & { suspendedAt: string; toolCalls: ToolCallDto[] };
export type RunDetailDto = Omit<RunDetail, "suspendedAt" | "createdAt" | "toolCalls"> & {
  suspendedAt: string;
  createdAt: string;
  toolCalls: ToolCallDto<PendingToolCall>[];
};

/** An agent the console serves. */
export interface AgentDto {
  id: string;
  name: string;
  description?: string;
}

export interface RunsPageDto {
  runs: RunDto[];
  total: number;
  /** 1-based. */
  page: number;
  perPage: number;
  pageCount: number;
}

/** A page of the runs table, with the URL parameters the server ignored and why. */
export interface RunsViewDto extends RunsPageDto {
  problems: string[];
}

type Interrupted = Map<string, Map<string, InterruptedDecision>>;

function withInterruptions<Call extends AgentRunToolCall>(runId: string, calls: Call[], interrupted: Interrupted): ToolCallDto<Call>[] {
  const found = interrupted.get(runId);
  if (!found) return calls;
  return calls.map((call) => {
    const decision = call.toolCallId ? found.get(call.toolCallId) : undefined;
    return decision ? { ...call, interrupted: decision } : call;
  });
}

export function toRunDto(run: ConsoleRun, interrupted: Interrupted = new Map()): RunDto {
  return { ...run, suspendedAt: run.suspendedAt.toISOString(), toolCalls: withInterruptions(run.runId, run.toolCalls, interrupted) };
}

export function toRunDetailDto(run: RunDetail, interrupted: Interrupted = new Map()): RunDetailDto {
  return {
    ...run,
    suspendedAt: run.suspendedAt.toISOString(),
    createdAt: run.createdAt.toISOString(),
    toolCalls: withInterruptions(run.runId, run.toolCalls, interrupted),
  };
}
