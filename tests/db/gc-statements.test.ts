/**
 * No native abort on the SQLite paths, whatever the garbage collector does: a child process runs
 * agents into suspension and out again, lists and queries, with collections forced every
 * millisecond and between statements (tests/helpers/gc-child.ts), then exits on its own. On Node
 * >= 24.19 with better-sqlite3 12 this process died with `Assertion failed: (env) != nullptr`.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { sqliteFilePath } from "@agent-approvals/mastra-store";
import { describe, expect, it } from "vitest";
import { childCommand } from "../helpers/child-scripts.ts";
import { useTestDatabase } from "../helpers/databases.ts";

function runChild(args: string[]) {
  return new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code, signal) => resolve({ code, signal, output }));
  });
}

describe(`SQLite under forced garbage collection on Node ${process.versions.node}`, () => {
  const database = useTestDatabase("sqlite");

  it("prepares and drops driver statements without a native abort", { timeout: 60_000 }, async () => {
    const { code, signal, output } = await runChild([path.resolve("tests/helpers/gc-driver-child.mjs"), sqliteFilePath(database.url)]);
    expect(output).not.toMatch(/Assertion failed|RemoveEnvironmentCleanupHook|Segmentation fault/);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output).toMatch(/^ok 20000$/m);
  });

  it("runs, decides and lists without a native abort, and exits cleanly", { timeout: 120_000 }, async () => {
    const { code, signal, output } = await runChild(["--expose-gc", ...childCommand("gc-child"), database.url]);
    expect(output).not.toMatch(/Assertion failed|RemoveEnvironmentCleanupHook|Segmentation fault/);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // Three runs suspended and approved: none left waiting.
    expect(output).toMatch(/^ok 0 20000$/m);
  });
});
