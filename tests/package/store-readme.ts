/**
 * packages/mastra-store/README.md as tests/package/packed-tarball.test.ts reads it: its blocks marked
 * `<!-- adoption-test: … -->`, the commands of its shell blocks, and its console block (step 6) run
 * as written in this checkout.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { PROJECT_ROOT } from "../../lib/db/prisma-paths.ts";
import type { ConsoleServer } from "../helpers/console-server.ts";

const run = promisify(execFile);

export const README = readFileSync(path.join(PROJECT_ROOT, "packages/mastra-store/README.md"), "utf8");
/** What the README's install line names; the test installs the tarball it just packed instead. */
export const README_TARBALL = "/tmp/agent-approvals-mastra-store-0.1.0.tgz";

/** The README's marked blocks, by their marker (`install`, `file mastra.mjs sqlite`, …). */
function readmeBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of README.matchAll(/<!-- adoption-test: ([^>]+?) -->\s*```\w+\n([\s\S]*?)```/g)) blocks.set(match[1]!, match[2]!);
  return blocks;
}
export const blocks = readmeBlocks();
export function block(marker: string): string {
  const text = blocks.get(marker);
  if (text === undefined) throw new Error(`packages/mastra-store/README.md has no block marked <!-- adoption-test: ${marker} -->`);
  return text;
}
/** A shell block's commands, one per line, `a && b` split, comments dropped. */
export const commandsOf = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean)
    .flatMap((line) => line.split(" && "))
    .map((command) => [...command.trim().matchAll(/'([^']*)'|(\S+)/g)].map((word) => word[1] ?? word[2]!));

/** The database the README's console block names; the test gives it the quick start's database instead. */
export const README_CONSOLE_DATABASE = "file:/srv/approvals/console.db";
export const README_REVIEWER = "you@example.com";

/**
 * The README's console block, run as written by a shell in this checkout on `databaseUrl`, but for
 * `npm run build` (the suite's build is there) and `npm start`: what it would start with comes back
 * (its environment), with the password `npm run users:create` printed.
 */
export async function runConsoleBlock(databaseUrl: string): Promise<{ env: NodeJS.ProcessEnv; password: string }> {
  const lines = block("console")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
  const start = lines.at(-1)!;
  expect(start).toMatch(/^(\w+=\S+ )*npm start -- --port \d+$/);
  expect(lines).toContain("npm run build");
  expect(lines.join("\n")).toContain(`npm run users:create -- --email ${README_REVIEWER} `);
  const script = [
    "set -e",
    ...lines.slice(0, -1).filter((line) => line !== "npm run build"),
    `${start.replace(/npm start -- .*$/, "")}node -e 'console.log(JSON.stringify(process.env))'`,
  ]
    .join("\n")
    .replaceAll(README_CONSOLE_DATABASE, databaseUrl);
  const { stdout } = await run("bash", ["-c", script], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: "", BETTER_AUTH_SECRET: "" },
    timeout: 300_000,
  });
  const env = JSON.parse(stdout.trim().split("\n").at(-1)!) as NodeJS.ProcessEnv;
  expect(env.DATABASE_URL).toBe(databaseUrl);
  expect(env.BETTER_AUTH_SECRET).toMatch(/^\S{40,}$/);
  return { env, password: /^Password \(shown once\): (\S+)$/m.exec(stdout)![1]! };
}

/** Signs in on the console's own sign-in route, as its page does; the session cookie. */
export async function signIn(server: ConsoleServer, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
