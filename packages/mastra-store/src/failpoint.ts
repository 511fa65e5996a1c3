/**
 * Crash-test hooks: with APPROVALS_FAILPOINT=after-outer-snapshot-deleted the process kills itself
 * (SIGKILL) between Mastra's deletes of a finished run's two rows; with after-waiting-snapshot-written
 * right after a run waiting on tool calls is written. The approvals console's tests check that nothing
 * is lost there. Never set outside those tests.
 */
export function failpoint(name: "after-outer-snapshot-deleted" | "after-waiting-snapshot-written"): void {
  if (process.env.APPROVALS_FAILPOINT === name) process.kill(process.pid, "SIGKILL");
}
