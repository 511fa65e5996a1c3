/**
 * Fault injection for the crash tests: with APPROVALS_FAILPOINT=<name> the process kills itself
 * (SIGKILL, no clean-up) at that point, exactly as a crashed server would stop. Each name marks a
 * step between "a decision is recorded" and "the run is gone" where a real crash can happen.
 */
export type Failpoint =
  /** The decision is recorded; nothing was sent to the agent. */
  | "after-record"
  /** The agent was asked to continue; the tool has not run yet. */
  | "after-send"
  /** The tool's effect happened (a demo tool's record is written); the agent has not reported it. */
  | "after-effect"
  /** The agent reported the tool's result and the decision noted it. */
  | "after-tool-result"
  /**
   * The continued run's stream was read to its end: Mastra has stored where the run stands (gone, or
   * waiting on its next call, e.g. the next of a step's parallel calls); the decision is not yet applied.
   */
  | "after-stream-read"
  /** Mastra deleted the run's outer snapshot, not yet its inner one (lib/store). */
  | "after-outer-snapshot-deleted";

export function failpoint(name: Failpoint): void {
  if (process.env.APPROVALS_FAILPOINT === name) process.kill(process.pid, "SIGKILL");
}
