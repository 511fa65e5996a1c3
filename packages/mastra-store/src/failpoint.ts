/**
 * A crash-test hook: with APPROVALS_FAILPOINT=after-outer-snapshot-deleted the process kills itself
 * (SIGKILL) between Mastra's deletes of a finished run's two rows, so the approvals console's tests
 * can check that nothing is lost there. Never set outside those tests.
 */
export function failpoint(name: "after-outer-snapshot-deleted"): void {
  if (process.env.APPROVALS_FAILPOINT === name) process.kill(process.pid, "SIGKILL");
}
