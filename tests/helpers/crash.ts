/**
 * The crash tests' two moves: a console process deciding, killed at a failpoint (SIGKILL, as a
 * crashed server stops), then a restarted process running recovery once the lease has expired.
 */
import { expect } from "vitest";
import { runConsoleProcess } from "./console-process.ts";

/** A short decision lease, so that recovery may take a killed decision over within a test. */
export const CRASH_LEASE_MS = 300;

export function crashingConsole(database: { readonly url: string }, leaseMs = CRASH_LEASE_MS) {
  const lease = { DECISION_LEASE_MS: String(leaseMs) };
  return {
    /** Runs a decision (`args`: action, runId, toolCallId[, reason | resume JSON]) killed at `failpoint`; waits out the lease. */
    async killedWhile(args: string[], failpoint: string): Promise<void> {
      const killed = await runConsoleProcess([database.url, ...args], { ...lease, APPROVALS_FAILPOINT: failpoint });
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, leaseMs + 200));
    },
    /** What a restarted server runs first: recovery's report. */
    async restart(): Promise<{ carriedOut: number; released: number; applied: number; failed: number }> {
      const restarted = await runConsoleProcess([database.url, "recover"], lease);
      expect(restarted.code, restarted.stderr).toBe(0);
      return JSON.parse(restarted.stdout.trim().split("\n").at(-1)!);
    },
  };
}
