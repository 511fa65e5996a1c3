/**
 * The example Mastra server (examples/mastra-server/server.ts) as its own process, for remote-mode
 * tests: the demo agents behind Mastra's Hono adapter on a test database. stop() ends it as an
 * operator would (SIGTERM); kill() as a crash does (SIGKILL); start() again on the same port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { childCommand } from "./child-scripts.ts";
import { freePort, PORT_RANGES, portRange } from "./ports.ts";

export interface MastraServerProcess {
  url: string;
  output: () => string;
  /** Starts it (again) on the same port, with `env` added. */
  start(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
  /** Resolves when the process has exited on its own (e.g. killed itself at a failpoint). */
  exited(): Promise<void>;
}

/** Remote-mode tests' ports (PORT_RANGES.mastraServer). */
const ports = portRange(...PORT_RANGES.mastraServer);

export const TEST_SERVER_TOKEN = "example-server-test-token";

/** A started example server on `databaseUrl` requiring TEST_SERVER_TOKEN (unless `token` is ""). */
export async function startMastraServer(
  databaseUrl: string,
  { token = TEST_SERVER_TOKEN, env = {} }: { token?: string; env?: Record<string, string> } = {},
): Promise<MastraServerProcess> {
  const port = await freePort(ports);
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = "";
  const server: MastraServerProcess = {
    url,
    output: () => output,
    async start(extra = {}) {
      const started = spawn(process.execPath, childCommand("mastra-server"), {
        env: {
          ...process.env,
          NO_COLOR: "1",
          ...env,
          ...extra,
          APPROVALS_DATABASE_URL: databaseUrl,
          PORT: String(port),
          MASTRA_SERVER_TOKEN: token,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = started;
      started.stdout!.on("data", (chunk) => (output += chunk));
      started.stderr!.on("data", (chunk) => (output += chunk));
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (started.exitCode !== null || started.signalCode !== null) throw new Error(`The Mastra server exited:\n${output}`);
        try {
          if ((await fetch(`${url}/health`)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`The Mastra server did not start within 60 s:\n${output}`);
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      const timer = setTimeout(() => running.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
    async exited() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise((resolve) => running.once("exit", resolve));
    },
  };
  await server.start();
  return server;
}
