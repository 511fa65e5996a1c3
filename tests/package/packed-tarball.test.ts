/**
 * The store package as a team would install it: `npm pack` makes the tarball, a fresh project outside
 * this repository installs it with @mastra/core (nothing else of ours, no Next.js), applies the
 * migrations with the package's CLI and runs a real agent on it (adopting-app.mjs): the tool waits for
 * approval, the run is listed, approved, the tool runs once and the run is gone.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../../lib/db/database-url.ts";
import { PROJECT_ROOT } from "../../lib/db/prisma-paths.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

const run = promisify(execFile);
const rootPackage = (await import("../../package.json", { with: { type: "json" } })).default;
let workspace: string;
let project: string;

/** Runs `command` in the adopting project, with output kept for the assertion messages. */
async function inProject(command: string, args: string[], env: Record<string, string> = {}) {
  return run(command, args, { cwd: project, env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? "" }, timeout: 300_000 });
}

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "store-package-"));
  // Without its prepack build: the suite builds it first, and other processes may be reading dist.
  await run("npm", ["pack", "--ignore-scripts", "--workspace", "@agent-approvals/mastra-store", "--pack-destination", workspace], {
    cwd: PROJECT_ROOT,
    timeout: 300_000,
  });
  const [tarball] = (await readdir(workspace)).filter((name) => name.endsWith(".tgz"));
  project = path.join(workspace, "app");
  await run("mkdir", [project]);
  await writeFile(
    path.join(project, "package.json"),
    JSON.stringify({
      name: "adopting-app",
      private: true,
      type: "module",
      dependencies: {
        "@agent-approvals/mastra-store": `file:../${tarball}`,
        "@mastra/core": rootPackage.dependencies["@mastra/core"],
        zod: rootPackage.dependencies.zod,
      },
    }),
  );
  await copyFile(fileURLToPath(new URL("./adopting-app.mjs", import.meta.url)), path.join(project, "adopting-app.mjs"));
  // From the registry (or npm's cache): nothing is linked to this repository.
  await inProject("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
}, 900_000);

afterAll(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

it("installs without the console: no Next.js, React or this app's code", async () => {
  expect(existsSync(path.join(project, "node_modules/@agent-approvals/mastra-store/dist/index.js"))).toBe(true);
  expect(existsSync(path.join(project, "node_modules/@agent-approvals/mastra-store/dist/index.d.ts"))).toBe(true);
  for (const absent of ["next", "react", "@prisma/schema-engine-wasm"])
    expect(existsSync(path.join(project, "node_modules", absent)), absent).toBe(false);
});

describe.each(["sqlite", "postgres"] as const)("the packed store on %s", (kind) => {
  let database: TestDatabase;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind, { migrate: false });
    url = kind === "sqlite" ? `file:${sqliteFilePath(database.url)}` : database.url;
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("migrates with its CLI, then once more finds nothing to do", async () => {
    const first = await inProject("npx", ["mastra-store", "migrate", "--database-url", url]);
    expect(first.stdout).toMatch(/applied 0001_init/);
    const again = await inProject("npx", ["mastra-store", "migrate"], { DATABASE_URL: url });
    expect(again.stdout).toMatch(/up to date/);
  });

  it("refuses a command it does not know, and a database it cannot serve, with a clear message", async () => {
    await expect(inProject("npx", ["mastra-store", "migrat"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Usage: mastra-store migrate/),
    });
    await expect(inProject("npx", ["mastra-store", "migrate", "--database-url", "mysql://db/app"])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Unsupported database URL "mysql:\/\/db\/app"/),
    });
  });

  it("keeps a real agent's waiting run: listed, approved, the tool run once, the run gone", async () => {
    const { stdout } = await inProject("node", ["adopting-app.mjs"], { DATABASE_URL: url });
    const outcome = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(outcome.toolCallId).toMatch(/^call_/);
    expect(outcome.listed).toEqual([{ runId: outcome.runId, threadId: "thread-1", calls: [outcome.toolCallId] }]);
    expect(outcome.executed).toEqual([{ orderId: "A-1", amount: 42 }]);
    expect(outcome.answer).toBe("Refund done.");
    expect(outcome.leftAfterApproval).toBe(0);
  });
});
