/**
 * `npm run bench:attack [-- --db sqlite|postgres] [--seconds 60]`: what a hostile client costs a
 * console server (server.mjs on the production build, `next build` first), loopback only, bounded.
 *
 *  1. Body flood: 12 parallel anonymous posts declaring 300 MB each and streaming as fast as the
 *     server reads, for up to 10 s.
 *  2. Anonymous refusal flood: 16 clients post decisions with four 60 KiB fields for N seconds.
 *  3. Signed-in refusal flood: one reviewer's 16 clients post invalid declines (100 KiB reasons).
 *
 * Reports per phase: requests and statuses, audit rows and characters stored, database growth
 * (SQLite file + WAL, or PostgreSQL's audit_events relation), and the server's RSS peak (VmHWM).
 */
import { request as httpRequest } from "node:http";
import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { sqliteFilePath } from "../lib/db/database-url.ts";
import { createTestAccount, sessionCookie } from "../tests/helpers/accounts.ts";
import { startConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";

const { values: options } = parseArgs({
  options: { db: { type: "string", default: "sqlite" }, seconds: { type: "string", default: "60" } },
});
const kind = options.db === "postgres" ? "postgres" : "sqlite";
const SECONDS = Number(options.seconds);

const database = await createTestDatabase(kind);
const reviewer = await createTestAccount(database.url, "reviewer", "Attacker");
const cookie = await sessionCookie(database.url, reviewer);
const server = await startConsoleServer(database.url);
/** server.mjs serves in its own process: no forked child to look for. */
const serverPid = server.pid;
const db = await getDb(database.url);

/** VmRSS and VmHWM of the server, in MiB. */
function memory() {
  const status = readFileSync(`/proc/${serverPid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

async function storedBytes(): Promise<number> {
  if (kind === "sqlite") {
    // The WAL is a reused journal, not growth: fold it into the file first.
    await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    const file = sqliteFilePath(database.url);
    return [file, `${file}-wal`].reduce((sum, path) => sum + (safeSize(path) ?? 0), 0);
  }
  const [row] = await db.$queryRawUnsafe<Array<{ size: bigint }>>(`SELECT pg_total_relation_size('audit_events') AS size`);
  return Number(row!.size);
}

function safeSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

async function auditFootprint() {
  const rows = await db.auditEvent.findMany();
  const characters = rows.reduce(
    (sum, row) => sum + Object.values(row).reduce<number>((n, v) => n + (typeof v === "string" ? v.length : 0), 0),
    0,
  );
  return { rows: rows.length, characters };
}

/** Posts `body` with a fresh connection; resolves with the status (the server may answer before reading). */
function post(body: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve) => {
    const request = httpRequest(new URL("/api/decisions", server.url), {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", origin: server.url, "content-length": String(Buffer.byteLength(body)), ...headers },
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", () => resolve(-1));
    request.end(body);
  });
}

async function flood(label: string, body: string, headers: Record<string, string> = {}) {
  const before = { bytes: await storedBytes(), audit: await auditFootprint(), memory: memory() };
  const statuses = new Map<number, number>();
  const deadline = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (Date.now() < deadline) {
        const status = await post(body, headers);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const after = { bytes: await storedBytes(), audit: await auditFootprint(), memory: memory() };
  const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${label} (${kind}, ${SECONDS} s, 16 clients, ${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB bodies)`);
  console.log(`  requests: ${requests} (${(requests / SECONDS).toFixed(0)}/s); statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
  console.log(
    `  audit rows +${after.audit.rows - before.audit.rows}, characters +${after.audit.characters - before.audit.characters}; ` +
      `database +${((after.bytes - before.bytes) / 1024).toFixed(0)} KiB in ${SECONDS} s (the refusal budget is per minute)`,
  );
  console.log(
    `  server RSS ${before.memory.rss.toFixed(0)} → ${after.memory.rss.toFixed(0)} MiB, peak ${after.memory.peak.toFixed(0)} MiB`,
  );
}

/** One post declaring `declared` bytes, streamed until the server answers or `maxMs` passes. */
function bigPost(declared: number, maxMs: number) {
  return new Promise<{ status: number; ms: number; sentMiB: number }>((resolve) => {
    const started = Date.now();
    let sent = 0;
    let done = false;
    const request = httpRequest(new URL("/api/decisions", server.url), {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", origin: server.url, "content-length": String(declared) },
    });
    const finish = (status: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ status, ms: Date.now() - started, sentMiB: sent / 1024 / 1024 });
    };
    const timer = setTimeout(() => finish(0), maxMs);
    request.on("response", (response) => finish(response.statusCode ?? 0));
    request.on("error", () => finish(-1));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const pump = () => {
      while (!done && sent < declared) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
    };
    pump();
  });
}

try {
  // The body flood first, so that its memory figure is not the refusal floods' heap.
  const before = memory();
  const results = await Promise.all(Array.from({ length: 12 }, () => bigPost(300 * 1024 * 1024, 10_000)));
  const after = memory();
  const answers = results.map((r) => (r.status === -1 ? "closed" : r.status === 0 ? "no answer" : r.status));
  console.log(`\nBody flood (${kind}): 12 parallel anonymous posts declaring 300 MB`);
  console.log(
    `  answers: ${JSON.stringify(answers)}; answered within ${Math.max(...results.map((r) => r.ms))} ms; sent before the answer: ≤ ${Math.max(...results.map((r) => r.sentMiB)).toFixed(0)} MiB each`,
  );
  console.log(`  server RSS ${before.rss.toFixed(0)} → ${after.rss.toFixed(0)} MiB, peak so far ${after.peak.toFixed(0)} MiB`);

  await flood(
    "Anonymous refusal flood",
    JSON.stringify({
      action: "approve",
      runId: "r".repeat(61_440),
      toolCallId: "c".repeat(61_440),
      reason: "x".repeat(61_440),
      resumeData: "y".repeat(61_440),
    }),
  );
  await flood(
    "Signed-in refusal flood",
    JSON.stringify({ action: "decline", runId: "run", toolCallId: "call", reason: "x".repeat(100_000) }),
    { cookie },
  );
} finally {
  await server.stop();
  await disconnectDb(database.url);
  await database.drop();
}
process.exit(0);
