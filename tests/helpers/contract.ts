/** Our listing's runs in the contract's shape, to compare with what Mastra's own listing returns. */
import type { ConsoleRun, ListSuspendedRunsResult } from "../../lib/runs/list-suspended-runs.ts";
import type { RunShape } from "@agent-approvals/mastra-store";

/**
 * The contract's AgentRun: without what the console adds (the owner, the run's shape, which must be
 * `shape`, the request excerpt, tests/runs/request-excerpt.test.ts checks it, and a delegated call's
 * path unless `keepPath`).
 */
export function asContractRuns(listing: ListSuspendedRunsResult, shape: RunShape, { keepPath = true } = {}) {
  return {
    total: listing.total,
    runs: listing.runs.map(({ agentId: _, shape: actual, requestExcerpt: _excerpt, ...run }: ConsoleRun) => {
      if (actual !== shape) throw new Error(`Run ${run.runId} is listed as a ${actual} run, expected ${shape}`);
      return keepPath ? run : { ...run, toolCalls: run.toolCalls.map(({ path: _p, ...call }) => call) };
    }),
  };
}
