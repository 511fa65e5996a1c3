/**
 * Several processes using one fresh PostgreSQL database at once (console instances and agent hosts
 * starting together): Mastra sets its own tables up on first use, and four processes doing it at
 * the same moment must all succeed, each running its agent into suspension (lib/store/index.ts sets
 * them up one process at a time). Before, three of four failed with
 * MASTRA_STORAGE_PG_ADD_SPANS_PRIMARY_KEY_FAILED.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { childCommand } from "../helpers/child-scripts.ts";
import { useTestDatabase } from "../helpers/databases.ts";

const PROCESSES = 4;

function suspendInChild(databaseUrl: string, resource: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [...childCommand("suspend-in-child"), databaseUrl, "teller", "transfer 5 from child to parent", `t-${resource}`, resource],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

describe("Mastra's own tables on a fresh PostgreSQL database", { timeout: 240_000 }, () => {
  const database = useTestDatabase("postgres");

  it(`are set up once while ${PROCESSES} processes start using them at the same moment`, async () => {
    const resources = Array.from({ length: PROCESSES }, () => `cust_${randomUUID()}`);
    const results = await Promise.all(resources.map((resource) => suspendInChild(database.url, resource)));
    expect(results.map(({ code, output }) => (code === 0 ? "suspended" : output.slice(-600)))).toEqual(resources.map(() => "suspended"));
    for (const { output } of results) expect(JSON.parse(output.trim().split("\n").at(-1)!)).toMatchObject({ runId: expect.any(String) });
  });
});
