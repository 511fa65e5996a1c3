/**
 * A decision in remote mode against the same decision embedded: lib/decisions/decide.ts `decide()`
 * (checks, record, audit, lease, carrying out, final state) with the agents in this process, and with
 * MASTRA_SERVER_URL set, carried out by the example Mastra server (a separate process: Mastra's Hono
 * adapter, the store package, the same SQLite database) over HTTP. Same agent, same kind of run, the
 * runs suspended by this process in both cases; measured alternately.
 * usage: remote-decision.ts <runs per side>   (prints JSON)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { disconnectDb } from "../lib/db/client.ts";
import { deployMigrations } from "../lib/db/migrate.ts";
import { decide } from "../lib/decisions/decide.ts";
import { getMastra } from "../lib/mastra/index.ts";
import { requests } from "../lib/mastra/demo/requests.ts";
import { runUntilWaiting } from "../lib/mastra/demo/run-until-waiting.ts";
import { freePort, PORT_RANGES, portRange } from "../tests/helpers/ports.ts";
import { stats } from "./timing.ts";

const n = Number(process.argv[2] ?? 20);
const dir = mkdtempSync(path.join(tmpdir(), "bench-remote-decision-"));
const url = `file:${path.join(dir, "decision.db")}`;
await deployMigrations(url);
const agent = (await getMastra(url)).getAgent("refunds");

const port = await freePort(portRange(...PORT_RANGES.benchMastraServer));
const server = spawn(process.execPath, ["--import", "tsx", path.resolve("examples/mastra-server/server.ts")], {
  env: { ...process.env, APPROVALS_DATABASE_URL: url, PORT: String(port), MASTRA_SERVER_TOKEN: "" },
  stdio: "ignore",
});
const serverUrl = `http://127.0.0.1:${port}`;
for (let tries = 0; ; tries++) {
  if (
    await fetch(`${serverUrl}/health`).then(
      (response) => response.ok,
      () => false,
    )
  )
    break;
  if (tries > 300) throw new Error("the example Mastra server did not start");
  await new Promise((resolve) => setTimeout(resolve, 200));
}

let seq = 0;
async function suspend() {
  seq++;
  // Own thread + resource per run: Mastra holds a second stream on a busy thread of one instance.
  return runUntilWaiting(
    agent,
    requests.refund({ order: `ORD-${9000 + seq}`, email: "bench@example.com", amount: "42.50", currency: "EUR", reason: "damaged" }).text,
    { thread: `bench-thread-${seq}`, resource: `bench-res-${seq}` },
  );
}

/** One decision, embedded or through the server: remote mode is read from the environment per decision. */
async function decision(remote: boolean): Promise<number> {
  const { runId, toolCallId } = await suspend();
  if (remote) process.env.MASTRA_SERVER_URL = serverUrl;
  else delete process.env.MASTRA_SERVER_URL;
  const started = performance.now();
  await decide({ action: "approve", runId, toolCallId }, { reviewer: "bench", databaseUrl: url });
  const took = performance.now() - started;
  delete process.env.MASTRA_SERVER_URL;
  return took;
}

try {
  for (let i = 0; i < 3; i++) (await decision(false), await decision(true)); // warm-up (the server's first decision compiles its routes)
  const embedded: number[] = [];
  const remote: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2) (remote.push(await decision(true)), embedded.push(await decision(false)));
    else (embedded.push(await decision(false)), remote.push(await decision(true)));
  }
  const [embeddedStats, remoteStats] = [stats(embedded), stats(remote)];
  console.log(
    JSON.stringify({
      store: "sqlite",
      n,
      embedded: embeddedStats,
      remote: remoteStats,
      ratio: remoteStats.median / embeddedStats.median,
      overheadMs: remoteStats.median - embeddedStats.median,
    }),
  );
} finally {
  server.kill();
  await disconnectDb(url);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
