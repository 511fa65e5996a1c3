/**
 * The console's listing of suspended agent runs across every agent: the contract's
 * `listSuspendedRuns` filters plus `agentId`, filtered, counted and paged in SQL on the columns
 * the store extracts when a snapshot is written (no snapshot JSON is read).
 */
import { z } from "zod";
import { getDb, databaseUrlFromEnv } from "../db/client.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { AgentRunToolCall } from "../store/snapshot-reader.ts";
import { listSuspendedRunsOptions, type ListSuspendedRunsOptions } from "./validations.ts";

/** The contract's AgentRun, plus the agent that owns it. */
export interface ConsoleRun {
  runId: string;
  status: "suspended";
  agentId: string;
  threadId?: string;
  resourceId?: string;
  suspendedAt: Date;
  toolCalls: AgentRunToolCall[];
}

export interface ListSuspendedRunsResult {
  runs: ConsoleRun[];
  /** Matching runs before pagination. */
  total: number;
}

export class InvalidListOptionsError extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(`Invalid listing options: ${issues.map((issue) => `${issue.path.join(".") || "options"}: ${issue.message}`).join("; ")}`);
    this.name = "InvalidListOptionsError";
  }
}

export async function listSuspendedRuns(
  options: ListSuspendedRunsOptions = {},
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<ListSuspendedRunsResult> {
  const parsed = listSuspendedRunsOptions.safeParse(options);
  if (!parsed.success) throw new InvalidListOptionsError(parsed.error.issues);
  const { agentId, threadId, resourceId, fromDate, toDate, perPage, page } = parsed.data;

  const where: Prisma.WorkflowSnapshotWhereInput = {
    status: "suspended",
    // Only agent-loop rows carry an owner: that is what makes a row an agent run.
    agentId: agentId ?? { not: null },
    threadId,
    resourceId,
    createdAt: fromDate || toDate ? { gte: fromDate, lte: toDate } : undefined,
  };
  const paginate = perPage !== undefined && page !== undefined;
  const db = await getDb(databaseUrl);
  const [rows, total] = await Promise.all([
    db.workflowSnapshot.findMany({
      where,
      select: { runId: true, agentId: true, threadId: true, resourceId: true, updatedAt: true, toolCalls: true },
      orderBy: [{ createdAt: "desc" }, { runId: "desc" }],
      skip: paginate ? page * perPage : undefined,
      take: paginate ? perPage : undefined,
    }),
    db.workflowSnapshot.count({ where }),
  ]);
  return {
    total,
    runs: rows.map((row) => ({
      runId: row.runId,
      status: "suspended",
      agentId: row.agentId!,
      threadId: row.threadId ?? undefined,
      resourceId: row.resourceId ?? undefined,
      suspendedAt: row.updatedAt,
      toolCalls: row.toolCalls ? (JSON.parse(row.toolCalls) as AgentRunToolCall[]) : [],
    })),
  };
}
