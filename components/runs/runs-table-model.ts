/** The table's row shape (one pending tool call) and its feature set, kept apart from the React parts. */
import {
  columnGroupingFeature,
  createExpandedRowModel,
  createGroupedRowModel,
  rowExpandingFeature,
  tableFeatures,
} from "@tanstack/react-table";
import type { ApprovalProgress, InFlightDecision, InterruptedDecision, MarkedExpiry } from "@/lib/decisions/types";
import type { AssigneeDto, ThreadDto } from "@/lib/queue/dto";
import type { Risk } from "@/lib/risk";
import { callRowId } from "./runs-table-lingering";

type RunShape = ThreadDto["runs"][number]["shape"];

export interface PendingCallRow {
  /** Unique per (runId, toolCallId): the same toolCallId can appear in different runs. */
  id: string;
  runId: string;
  toolCallId?: string;
  toolName: string;
  requiresApproval: boolean;
  /** Which kind of run the call belongs to (agent, durable agent, workflow). */
  shape: RunShape;
  agentId: string;
  agentName: string;
  /** A delegated call's path: supervisor → sub-agent(s) → tool (the run is continued through the supervisor). */
  path?: string[];
  threadId?: string;
  resourceId?: string;
  suspendedAt: string;
  /** One line of what the agent was last asked in this run (the store keeps it with the snapshot). */
  requestExcerpt?: string;
  /** Set when the call's last decision was interrupted: its tool may already have run. */
  interrupted?: InterruptedDecision;
  /** Set while somebody's decision on the call is being carried out. */
  inFlight?: InFlightDecision;
  /** The call needs several people's approvals: who approved so far. */
  approvals?: ApprovalProgress;
  /** Who holds the call (its own assignment or its thread's). */
  assignee?: AssigneeDto;
  /** Set when its expiry rule marked the call expired: listed while its run waits, never decidable again. */
  markedExpired?: MarkedExpiry;
  /** When its expiry rule expires the call, if one does. */
  expiresAt?: string;
  /** The risk of the rule that matched the call; absent: unrated. */
  risk?: Risk;
  /** Grouping key: the thread, or a marker for runs without one. */
  threadKey: string;
}

/**
 * The grouping key of the runs without a memory thread (agents used without memory): a marker, not
 * a word, which no thread id is; the group is named in the reader's words (queue.noThread).
 */
export const NO_THREAD = "\u0000no-thread";

/** Grouping by thread and expanding groups are opt-in features in TanStack Table v9. */
export const runsTableFeatures = tableFeatures({
  columnGroupingFeature,
  rowExpandingFeature,
  groupedRowModel: createGroupedRowModel(),
  expandedRowModel: createExpandedRowModel(),
});

export type RunsTableFeatures = typeof runsTableFeatures;

/** `unnamedTool`: the words for a call the store kept no tool name for. */
export function toPendingCallRows(threads: ThreadDto[], agentNames: Map<string, string>, unnamedTool: string): PendingCallRow[] {
  return threads.flatMap((thread) =>
    thread.runs.flatMap((run) =>
      run.toolCalls.map((call, index) => ({
        id: callRowId(run.runId, call.toolCallId, index),
        runId: run.runId,
        toolCallId: call.toolCallId,
        // A delegated suspend() is named by Mastra after the supervisor's `agent-<name>` tool: show the tool that waits.
        toolName: call.path?.at(-1) ?? call.toolName ?? unnamedTool,
        requiresApproval: call.requiresApproval,
        shape: run.shape,
        agentId: run.agentId,
        agentName: agentNames.get(run.agentId) ?? run.agentId,
        path: call.path,
        threadId: run.threadId,
        resourceId: run.resourceId,
        suspendedAt: run.suspendedAt,
        requestExcerpt: run.requestExcerpt,
        interrupted: call.interrupted,
        inFlight: call.inFlight,
        approvals: call.approvals,
        assignee: call.assignee,
        markedExpired: call.markedExpired,
        expiresAt: call.expiresAt,
        risk: call.risk,
        threadKey: thread.threadKey || NO_THREAD,
      })),
    ),
  );
}

/** What a thread's header row shows: the server's counts, and who the shown calls are for. */
export function summarizeThread(thread: ThreadDto, calls: PendingCallRow[]) {
  const unique = (values: Array<string | undefined>) => [...new Set(values.filter((v): v is string => Boolean(v)))];
  return {
    threadId: thread.threadKey || undefined,
    resourceIds: unique(calls.map((c) => c.resourceId)),
    agentNames: unique(calls.map((c) => c.agentName)),
    count: thread.calls,
    shown: calls.length,
    overdue: thread.overdueCalls,
    oldestSuspendedAt: thread.oldestSuspendedAt,
  };
}

/** Whether a call waiting since `suspendedAt` has passed the review target at `now`. */
export function isOverdue(suspendedAt: string, slaMinutes: number, now: number): boolean {
  return now - new Date(suspendedAt).getTime() > slaMinutes * 60_000;
}

/** The review targets the page was served with: one per risk, REVIEW_SLA_MINUTES for calls without one. */
export interface ReviewTargets {
  slaMinutes: number;
  riskTargets?: Partial<Record<Risk, number>>;
}

/** A call's review target in minutes: its risk's, else the single one. */
export function targetMinutesOf(risk: Risk | undefined, targets: ReviewTargets): number {
  return (risk && targets.riskTargets?.[risk]) || targets.slaMinutes;
}
