/**
 * The typed client: examples/api-client/generated/api-types.ts is what openapi-typescript makes of the
 * document today (`npm run api:types`), and the example script built on it (openapi-fetch) lists
 * and approves a waiting call on a real console server, on SQLite and PostgreSQL.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { CLIENT_TYPES_FILE, clientTypes } from "../../lib/openapi/client-types.ts";
import { createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

const run = promisify(execFile);

it("the generated client types are what the document makes now (npm install, npm run api:types)", async () => {
  expect(await readFile(CLIENT_TYPES_FILE, "utf8")).toBe(await clientTypes());
});

describe.each(["sqlite", "postgres"] as const)("examples/api-client/approve-waiting.ts against a real console (%s)", (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let reviewer: TestAccount;
  let waiting: DemoRun;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [server, reviewer, waiting] = await Promise.all([
      startConsoleServer(database.url),
      createTestAccount(database.url, "reviewer", "Rita"),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-8101", "12.00 EUR")),
    ]);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database?.url);
    await database?.drop();
  });

  const example = (account: { email: string; password: string }, ...args: string[]) =>
    run(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "examples/api-client/approve-waiting.ts", ...args], {
      env: { ...process.env, CONSOLE_URL: server.url, CONSOLE_EMAIL: account.email, CONSOLE_PASSWORD: account.password },
    });

  it("lists the waiting call, approves it with --dry-run only saying so, and the decision is recorded", async () => {
    const db = await getDb(database.url);
    const dry = await example(reviewer, "--dry-run");
    expect(dry.stdout).toContain("1 calls waiting in 1 threads");
    expect(dry.stdout).toContain(`run ${waiting.runId} call ${waiting.ref.toolCallId}`);
    expect(dry.stdout).toContain(`would approve issueRefund of run ${waiting.runId}`);
    expect(await db.toolCallDecision.count()).toBe(0);

    const approved = await example(reviewer);
    expect(approved.stdout).toContain(`approved issueRefund of run ${waiting.runId}: the run is completed`);
    expect(await db.toolCallDecision.findFirst({ where: { runId: waiting.runId } })).toMatchObject({
      action: "approve",
      state: "applied",
      reviewer: reviewer.email,
    });
    expect((await example(reviewer)).stdout).toContain("0 calls waiting in 0 threads\nnothing to approve");
  });

  it("fails with the refusal when the sign-in is wrong", async () => {
    await expect(example({ email: reviewer.email, password: "wrong-password" })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("sign-in refused (401)"),
    });
  });
});
