/**
 * A console process of its own that makes one decision or runs recovery (decide-in-child.ts), so a
 * test can kill it mid-decision with a failpoint (APPROVALS_FAILPOINT) as a crash would. Used by the
 * crash tests and the e2e fixtures.
 */
import { spawn } from "node:child_process";
import { childCommand } from "./child-scripts.ts";

export interface ConsoleProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `decide-in-child.ts <args…>` with `env` added to this process's environment. */
export function runConsoleProcess(args: string[], env: Record<string, string> = {}): Promise<ConsoleProcessExit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...childCommand("decide-in-child"), ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
