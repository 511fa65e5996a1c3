/**
 * The store package as a new team adopts it, following only packages/mastra-store/README.md: `npm pack`
 * makes the tarball, an empty project outside this repository runs the README's quick start, read
 * from the README itself (the blocks marked `<!-- adoption-test: … -->`), so the README cannot drift
 * from what works: its install lines (from the registry or npm's cache, nothing linked to this repository),
 * its migrate command, mastra.mjs, agents.mjs (a scripted model on the `model` line), try.mjs and server.mjs. Then Mastra's own listSuspendedRuns() is compared with what
 * the package holds, and a console in remote mode, set up on the same database by the README's console
 * block (store-readme.ts), approves one call through the README's server. On SQLite and PostgreSQL.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { PROJECT_ROOT } from "../../lib/db/prisma-paths.ts";
import { postDecision, startConsoleServer, startConsoleServerExpectingExit, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { freePort, PORT_RANGES, portRange } from "../helpers/ports.ts";
import { block, blocks, commandsOf, README, README_REVIEWER, README_TARBALL, runConsoleBlock, signIn } from "./store-readme.ts";

const run = promisify(execFile);
const rootPackage = (await import("../../package.json", { with: { type: "json" } })).default;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const hasBuild = existsSync(path.join(PROJECT_ROOT, ".next/BUILD_ID"));

let workspace: string;
let project: string;
let tarball: string;

/** Runs a command in `cwd` with `env` added; DATABASE_URL of this process never leaks in. */
async function runIn(cwd: string, [command, ...args]: string[], env: Record<string, string> = {}) {
  return run(command!, args, {
    cwd,
    env: { ...process.env, DATABASE_URL: "", APPROVALS_DATABASE_URL: "", ...env },
    timeout: 300_000,
  });
}

/** Runs one of the README's shell blocks, as written, but for the tarball's path and npm's network flags. */
async function runShellBlock(cwd: string, marker: string) {
  for (const command of commandsOf(block(marker))) {
    const args = command.map((word) => (word === README_TARBALL ? tarball : word));
    if (args[0] === "npm" && args[1] === "install") args.push("--prefer-offline", "--no-audit", "--no-fund");
    await runIn(cwd, args);
  }
}

beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "store-package-"));
  // Without its prepack build: the suite builds it first, and other processes may be reading dist.
  await run("npm", ["pack", "--ignore-scripts", "--workspace", "@agent-approvals/mastra-store", "--pack-destination", workspace], {
    cwd: PROJECT_ROOT,
    timeout: 300_000,
  });
  const [name] = (await readdir(workspace)).filter((file) => file.endsWith(".tgz"));
  tarball = path.join(workspace, name!);
  expect(path.basename(README_TARBALL)).toBe(name);
  project = path.join(workspace, "app");
  await mkdir(project);
  for (const marker of ["install", "install postgres", "install server"]) await runShellBlock(project, marker);
}, 900_000);

afterAll(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

describe("the README's install", () => {
  it("pins what the root package.json pins, and lists every package its code imports", () => {
    const installed = commandsOf([block("install"), block("install postgres"), block("install server")].join("\n"))
      .filter((command) => command[0] === "npm" && command[1] === "install")
      .flatMap((command) => command.slice(2))
      .filter((word) => word !== README_TARBALL);
    const pinned = Object.fromEntries(
      installed.map((spec) => [spec.slice(0, spec.lastIndexOf("@")), spec.slice(spec.lastIndexOf("@") + 1)]),
    );
    for (const [name, version] of Object.entries(pinned))
      expect(version, name).toBe((rootPackage.dependencies as Record<string, string>)[name]);
    const imported = new Set(
      [...blocks]
        .filter(([marker]) => marker.startsWith("file "))
        .flatMap(([, code]) => [...code.matchAll(/from "([^".][^"]*)"/g)].map((match) => match[1]!))
        .filter((specifier) => !specifier.startsWith("node:"))
        .map((specifier) =>
          specifier
            .split("/")
            .slice(0, specifier.startsWith("@") ? 2 : 1)
            .join("/"),
        ),
    );
    for (const name of imported) if (name !== "@agent-approvals/mastra-store") expect(Object.keys(pinned), name).toContain(name);
  });

  it("says which line changes once it is published, and that npm pack rebuilds dist in place", async () => {
    const lines = block("install").trim().split("\n");
    const second = lines[1]!;
    expect(second.startsWith(`npm install ${README_TARBALL} `)).toBe(true);
    expect(lines.filter((line) => line.includes(README_TARBALL))).toEqual([second]);
    expect(README).toContain("Once it is published, the install's second line, `npm install <tarball> …`, becomes");
    const storePackage = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "packages/mastra-store/package.json"), "utf8"));
    expect(storePackage.scripts).toMatchObject({ prepack: "npm run build", build: expect.stringMatching(/^rm -rf dist && /) });
    expect(README).toContain("`npm pack` first rebuilds the package in place (its `prepack` runs `npm run build`, which deletes\n`dist`");
  });

  it("installs the package without the console: no Next.js, React or this app's code", () => {
    const root = path.join(project, "node_modules/@agent-approvals/mastra-store");
    for (const file of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli.js",
      "LICENSE",
      "CHANGELOG.md",
      "migrations/sqlite/0001_init/migration.sql",
    ])
      expect(existsSync(path.join(root, file)), file).toBe(true);
    for (const absent of ["src", "tsconfig.json", "dist/cli.d.ts"]) expect(existsSync(path.join(root, absent)), absent).toBe(false);
    // The README's override: the SQLite adapter gets the package's better-sqlite3 13, no nested 12.
    expect(existsSync(path.join(project, "node_modules/@prisma/adapter-better-sqlite3/node_modules/better-sqlite3"))).toBe(false);
    for (const absent of ["next", "react", "@prisma/schema-engine-wasm"])
      expect(existsSync(path.join(project, "node_modules", absent)), absent).toBe(false);
  });
});

describe.each(["sqlite", "postgres"] as const)("the README's quick start on %s", (kind) => {
  let folder: string;
  let database: TestDatabase;
  /** What the README's code is given: on SQLite the README's own relative URL, resolved in `folder`. */
  let storeUrl: string;
  /** The same database, absolute: what the console (started elsewhere) is given. */
  let consoleUrl: string;
  let mastraServer: ChildProcess | undefined;
  let mastraOutput = "";
  let consoleServer: ConsoleServer | undefined;

  const inFolder = (command: string[], env: Record<string, string> = {}) =>
    runIn(folder, command, { APPROVALS_DATABASE_URL: storeUrl, ...env });
  const listings = async () => JSON.parse((await inFolder(["node", "compare-listings.mjs"])).stdout.trim().split("\n").at(-1)!);

  beforeAll(async () => {
    folder = path.join(project, kind);
    await mkdir(folder);
    const readmeUrl = /export APPROVALS_DATABASE_URL=(\S+)/.exec(block("migrate"))![1]!;
    if (kind === "sqlite") {
      storeUrl = readmeUrl;
      consoleUrl = `file:${path.resolve(folder, readmeUrl.slice("file:".length))}`;
      database = { kind, url: consoleUrl, drop: async () => undefined };
    } else {
      database = await createTestDatabase(kind, { migrate: false });
      storeUrl = consoleUrl = database.url;
    }
    await writeFile(path.join(folder, "mastra.mjs"), block(`file mastra.mjs ${kind}`));
    const agents = block("file agents.mjs");
    expect(agents).toContain(`model: "openai/gpt-4o-mini",`);
    await writeFile(
      path.join(folder, "agents.mjs"),
      `import { scriptedModel } from "./scripted-model.mjs";\n${agents.replace(`model: "openai/gpt-4o-mini",`, "model: scriptedModel,")}`,
    );
    await writeFile(path.join(folder, "try.mjs"), block("file try.mjs"));
    await writeFile(path.join(folder, "server.mjs"), block("file server.mjs"));
    await copyFile(here("./scripted-model.mjs"), path.join(folder, "scripted-model.mjs"));
    await copyFile(here("./compare-listings.mjs"), path.join(folder, "compare-listings.mjs"));
  }, 120_000);

  afterAll(async () => {
    await consoleServer?.stop();
    if (mastraServer && mastraServer.exitCode === null) {
      const exited = new Promise((resolve) => mastraServer!.once("exit", resolve));
      mastraServer.kill("SIGTERM");
      await exited;
    }
    await disconnectDb(consoleUrl);
    await database?.drop();
  });

  it("refuses to run on a database without the store's migrations, naming the command", async () => {
    // Before the README's migrate has made data/ (where its LibSQLStore keeps Mastra's own file).
    await mkdir(path.join(folder, "data"), { recursive: true });
    const unmigrated = kind === "sqlite" ? "file:./unmigrated.db" : (await createTestDatabase(kind, { migrate: false })).url;
    try {
      await expect(inFolder(["node", "try.mjs"], { APPROVALS_DATABASE_URL: unmigrated })).rejects.toMatchObject({
        stderr: expect.stringMatching(/store's migrations are not applied .*missing: 0001_init.*npx mastra-store migrate --database-url/),
      });
    } finally {
      if (kind === "postgres") {
        const { default: pg } = await import("pg");
        const admin = new pg.Client({ connectionString: (await import("../helpers/databases.ts")).POSTGRES_ADMIN_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS "${new URL(unmigrated).pathname.slice(1)}" WITH (FORCE)`);
        await admin.end();
      }
    }
  });

  it("with APPROVALS_DATABASE_URL unset, the README's config stops naming the variable, not on a TypeError", async () => {
    const { APPROVALS_DATABASE_URL: _, ...unset } = process.env;
    const result = await run("node", ["try.mjs"], { cwd: folder, env: { ...unset, DATABASE_URL: "" }, timeout: 120_000 }).then(
      () => ({ stderr: "it ran" }),
      (error: { stderr: string }) => error,
    );
    expect(result.stderr).toMatch(/The approvals store has no database \(its databaseUrl is undefined\): set APPROVALS_DATABASE_URL/);
    expect(result.stderr).not.toContain("TypeError");
  });

  it("migrates with the README's command, printing the absolute database, then finds nothing to do", async () => {
    const [exported, migrate] = commandsOf(block("migrate"));
    expect(exported![0]).toBe("export");
    const first = await inFolder(migrate!);
    expect(first.stdout).toMatch(/applied 0001_init/);
    if (kind === "sqlite") expect(first.stdout).toContain(`${consoleUrl}: applied`);
    expect((await inFolder(migrate!)).stdout).toMatch(/the store is up to date/);
  });

  it("never migrates DATABASE_URL by default, and refuses what it cannot do with a clear message", async () => {
    await expect(
      inFolder(["npx", "mastra-store", "migrate"], { APPROVALS_DATABASE_URL: "", DATABASE_URL: consoleUrl }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /No database: pass --database-url <url> or set APPROVALS_DATABASE_URL\.\nDATABASE_URL is set, but it is not read/,
      ),
    });
    await expect(inFolder(["npx", "mastra-store", "migrat"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Usage: mastra-store migrate/),
    });
    await expect(inFolder(["npx", "mastra-store", "migrate", "--database-url", "mysql://db/app"])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Unsupported database URL "mysql:\/\/db\/app"/),
    });
  });

  it("runs the README's agents until an approval and a suspend() wait; Mastra's listing and the package's agree", async () => {
    const { stdout } = await inFolder(["node", "try.mjs"]);
    const lines = stdout.trim().split("\n");
    expect(lines.map((line) => line.replace(/^\S+ /, "")).sort()).toEqual(["customer-1 issueRefund", "customer-2 chooseAddress"]);
    const listed = await listings();
    expect(listed.total).toBe(2);
    expect(listed.mastra.map((call: { toolName: string }) => call.toolName).sort()).toEqual(["chooseAddress", "issueRefund"]);
    expect(listed.package).toEqual(listed.mastra);
  });

  it.runIf(hasBuild)(
    "a console in remote mode refuses the database until its own migrations are there, then approves a call through the README's server",
    async () => {
      const refused = await startConsoleServerExpectingExit(consoleUrl, {});
      expect(refused).toMatchObject({ started: false, code: 1 });
      expect(refused.output).toMatch(/Refusing to start: the console's migrations are not applied to .*Run `npm run db:deploy`/);
      const { env: consoleEnv, password } = await runConsoleBlock(consoleUrl);

      const port = await freePort(portRange(...PORT_RANGES.packedConsoleServer));
      mastraServer = spawn("node", ["server.mjs"], {
        cwd: folder,
        env: { ...process.env, DATABASE_URL: "", APPROVALS_DATABASE_URL: storeUrl, PORT: String(port) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      mastraServer.stdout!.on("data", (chunk) => (mastraOutput += chunk));
      mastraServer.stderr!.on("data", (chunk) => (mastraOutput += chunk));
      const serverUrl = `http://127.0.0.1:${port}`;
      for (const deadline = Date.now() + 60_000; ;) {
        if (mastraServer.exitCode !== null) throw new Error(`The README's server exited:\n${mastraOutput}`);
        if (
          await fetch(`${serverUrl}/api/agents`).then(
            (response) => response.ok,
            () => false,
          )
        )
          break;
        if (Date.now() > deadline) throw new Error(`The README's server did not answer within 60 s:\n${mastraOutput}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }

      // The README's start, but on this run's ports: its MASTRA_SERVER_URL is its server.mjs's default.
      expect(consoleEnv.MASTRA_SERVER_URL).toBe(`http://127.0.0.1:${/process\.env\.PORT \?\? (\d+)/.exec(block("file server.mjs"))![1]}`);
      consoleServer = await startConsoleServer(consoleEnv.DATABASE_URL!, {
        MASTRA_SERVER_URL: serverUrl,
        BETTER_AUTH_SECRET: consoleEnv.BETTER_AUTH_SECRET!,
      });
      const cookie = await signIn(consoleServer, README_REVIEWER, password);
      const refund = (await listings()).mastra.find((call: { toolName: string }) => call.toolName === "issueRefund");
      const approved = await postDecision(consoleServer, cookie, { action: "approve", runId: refund.runId, toolCallId: refund.toolCallId });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body.data).toMatchObject({ action: "approve", answer: 'Done: {"refunded":42,"orderId":"A-1"}' });

      // Only the suspend() call still waits, in Mastra's listing and the package's alike (Mastra
      // deletes the finished run just after its stream ends: allow it a moment).
      let after = await listings();
      for (let tries = 0; after.total > 1 && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        after = await listings();
      }
      expect(after.mastra.map((call: { toolName: string }) => call.toolName)).toEqual(["chooseAddress"]);
      expect(after.package).toEqual(after.mastra);
    },
    240_000,
  );
});
