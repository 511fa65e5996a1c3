/**
 * A real console server (`next start` on the production build) for HTTP-level tests. Needs
 * `next build` first (`npm test` does it). Each server is its own process, like a deployment's
 * instances; stop() ends it and its children.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export interface ConsoleServer {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

let nextPort = 3200 + Math.floor(Math.random() * 500);

export async function startConsoleServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ConsoleServer> {
  if (!existsSync(path.resolve(".next/BUILD_ID"))) throw new Error("No production build: run `npx next build` first (npm test does).");
  const port = nextPort++;
  const child = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const server = { url, output: () => output, stop: () => stop(child) };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`next start did not become healthy within 60 s:\n${output}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // The whole process group: `next start` runs the server in a child process of its own.
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

/** POST /api/decisions as a named reviewer. */
export async function postDecision(server: ConsoleServer, reviewer: string, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/decisions`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `reviewer=${encodeURIComponent(reviewer)}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { ok: boolean; data?: any; error?: any } };
}
