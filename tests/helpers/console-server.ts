/**
 * A real console server (server.mjs on the production build, as `npm start` runs it) for HTTP-level
 * tests. Needs `next build` first (`npm test` does it). Each server is its own process, like a
 * deployment's instances; stop() ends it and its children.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { readFileSync } from "node:fs";
import path from "node:path";
import { TEST_AUTH_SECRET } from "./accounts.ts";
import { freePort, PORT_RANGES, portRange } from "./ports.ts";

export interface ConsoleServer {
  url: string;
  /** The process we started, leader of its process group (the server itself may be a child in that group). */
  pid: number;
  output: () => string;
  stop(): Promise<void>;
}

/** Where servers listen unless told (`CONSOLE_SERVER_PORTS=first-last`, e.g. a benchmark given a range of its own). */
const ports = portRange(...portsFromEnv(process.env.CONSOLE_SERVER_PORTS));

function portsFromEnv(range: string | undefined): [number, number] {
  if (!range) return [...PORT_RANGES.consoleServer];
  const match = /^(\d{4,5})-(\d{4,5})$/.exec(range);
  if (!match || Number(match[1]) > Number(match[2])) throw new Error(`CONSOLE_SERVER_PORTS must be first-last, e.g. 3500-3599: ${range}`);
  return [Number(match[1]), Number(match[2])];
}

/** Called with everything the server has printed so far, each time it prints (e.g. to act on a log line while it starts). */
export type OutputWatcher = (output: string) => void;

async function spawnConsoleServer(databaseUrl: string, env: Record<string, string>, watch?: OutputWatcher, fixedPort?: number) {
  if (!existsSync(path.resolve(".next/BUILD_ID"))) throw new Error("No production build: run `npx next build` first (npm test does).");
  // Free right now: a port held by another test server (e.g. a Mastra server) would fail the start.
  const port = fixedPort ?? (await freePort(ports));
  const child = spawn(process.execPath, [path.resolve("server.mjs"), "--hostname", "127.0.0.1", "--port", String(port)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", BETTER_AUTH_SECRET: TEST_AUTH_SECRET, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on("data", (chunk) => {
      output += chunk;
      watch?.(output);
    });
  }
  const url = `http://127.0.0.1:${port}`;
  return { child, server: { url, pid: child.pid!, output: () => output, stop: () => stop(child) } };
}

/** `port`: listen there (an instance restarted where its clients reconnect), instead of any free one. */
export async function startConsoleServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  watch?: OutputWatcher,
  port?: number,
): Promise<ConsoleServer> {
  const { child, server } = await spawnConsoleServer(databaseUrl, env, watch, port);
  const { url } = server;
  const output = server.output;
  const deadline = Date.now() + 60_000;
  // What the last health check got, for the error: a 503's reason, a refused connection, a hang.
  let lastAnswer = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The console server exited (${child.exitCode}):\n${output()}`);
    try {
      // One slow answer must not use up the whole wait unseen.
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) });
      if (response.ok) return server;
      lastAnswer = `${response.status} ${await response.text()}`;
    } catch (error) {
      lastAnswer = (error as Error).cause ? String((error as Error).cause) : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`The console server did not become healthy within 60 s (last health check: ${lastAnswer}):\n${output()}`);
}

/**
 * Starts a console server that is expected to refuse to start; resolves with how it exited and
 * what it printed. One that becomes healthy instead is stopped, and comes back with `started`.
 */
export async function startConsoleServerExpectingExit(
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ started: boolean; code: number | null; output: string }> {
  const { child, server } = await spawnConsoleServer(databaseUrl, env);
  // "close", not "exit": by then everything it printed has been read.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const code = await Promise.race([exited, new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 250))]);
    if (code !== "running") return { started: false, code, output: server.output() };
    const healthy = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) {
      await server.stop();
      return { started: true, code: null, output: server.output() };
    }
  }
  await server.stop();
  throw new Error(`The console server neither exited nor became healthy within 60 s:\n${server.output()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // The whole process group, in case the server ever runs children of its own.
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

/** POST /api/decisions with a session cookie (tests/helpers/accounts.ts `sessionCookie`), or none. */
export async function postDecision(server: ConsoleServer, cookie: string | null, body: Record<string, unknown>, origin = server.url) {
  const response = await fetch(`${server.url}/api/decisions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { ok: boolean; data?: any; error?: any } };
}

/**
 * Calls a server action over HTTP exactly as the browser does (the build's action id in a
 * Next-Action header, arguments as JSON), so tests reach it without going through our UI.
 */
export async function callServerAction(
  server: ConsoleServer,
  exportedName: string,
  args: unknown[],
  { cookie, origin = server.url, page }: { cookie?: string | null; origin?: string; page?: string } = {},
) {
  const manifest = JSON.parse(readFileSync(path.resolve(".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  const [id, entry] = Object.entries(manifest.node).find(([, candidate]) => candidate.exportedName === exportedName) ?? [];
  if (!id || !entry) throw new Error(`No server action named ${exportedName} in the build`);
  // An action is served by the pages that use it: post to one of them ("app/runs/[runId]/page" → /runs/x;
  // a route group such as "(queue)" is not part of the URL).
  const pagePath =
    page ??
    Object.keys(entry.workers)
      .filter((worker) => worker.endsWith("/page"))
      .map(
        (worker) =>
          worker
            .replace(/^app/, "")
            .replace(/\/page$/, "")
            .replace(/\/\([^)]+\)/g, "")
            .replace(/\[[^\]]+\]/g, "x") || "/",
      )[0] ??
    "/";
  const response = await fetch(`${server.url}${pagePath}`, {
    method: "POST",
    headers: {
      accept: "text/x-component",
      "next-action": id,
      "content-type": "text/plain;charset=UTF-8",
      origin,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(args),
  });
  const text = await response.text();
  // The RSC payload carries the action's return value as one JSON line: `1:{"ok":…}`.
  const line = text.split("\n").find((candidate) => /^\w+:\{"ok":/.test(candidate));
  return {
    status: response.status,
    result: line ? (JSON.parse(line.slice(line.indexOf(":") + 1)) as { ok: boolean; error?: any; data?: any }) : null,
    text,
  };
}
