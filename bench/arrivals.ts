/**
 * The open-loop load's driver (bench/open-loop.ts): requests sent at evenly spaced times whatever the
 * servers answer, each timed from when it was due; waiting for servers to drain between phases; and
 * the closed-loop maximum of one instance with autocannon.
 */
import http from "node:http";
import autocannon from "autocannon";
import type { ConsoleServer } from "../tests/helpers/console-server.ts";

/** A request unanswered after this counts as a timeout (an error), so a phase always ends. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const DECISIONS_PER_SECOND = 2;
export const SATURATION_CONNECTIONS = 16;
/** How long to wait for servers to drain before a phase starts anyway (it then says so: drainSeconds). */
const DRAIN_LIMIT_MS = 180_000;
/** A rate counts as reached when at least this share of its reads were answered. */
const RATE_REACHED = 0.95;

export interface Request {
  kind: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  /** Sent besides the cookie and accept (a conditional read's If-None-Match). */
  headers?: Record<string, string>;
}

/* ---------- latency statistics ---------- */

export function percentiles(samples: number[]) {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { n: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(at(1)) };
}

/* ---------- one request, timed from when it was due ---------- */

interface Outcome {
  kind: string;
  status: string;
  latencyMs: number;
  /** What failed: the start of a server error's body (its error code and message), or the request that got no answer. */
  serverError?: string;
  /** The answer's ETag, if it had one. */
  etag?: string;
}

export function send(server: ConsoleServer, agent: http.Agent, cookie: string, request: Request, dueAt: number): Promise<Outcome> {
  const url = new URL(server.url);
  return new Promise((resolve) => {
    const done = (status: string, serverError?: string, etag?: string) =>
      resolve({ kind: request.kind, status, latencyMs: performance.now() - dueAt, serverError, etag });
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          cookie,
          accept: request.kind.endsWith("page") ? "text/html" : "application/json",
          ...request.headers,
          ...(request.body
            ? { "content-type": "application/json", origin: server.url, "content-length": Buffer.byteLength(request.body) }
            : {}),
        },
      },
      (response) => {
        let head = "";
        const failed = (response.statusCode ?? 0) >= 500;
        response.on("data", (chunk) => void (failed && head.length < 300 && (head += chunk)));
        const etag = typeof response.headers.etag === "string" ? response.headers.etag : undefined;
        response.on("end", () => done(String(response.statusCode), failed ? head.slice(0, 300) : undefined, etag));
        response.on("error", (error) => done((error as NodeJS.ErrnoException).code ?? "error"));
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(Object.assign(new Error("timeout"), { code: "timeout" })));
    // A request that got no answer is named (an approval: its run and call), to look it up in the
    // server's output and the database afterwards.
    const unanswered = `no answer within ${REQUEST_TIMEOUT_MS / 1000} s: ${request.method} ${request.path}${request.body ? ` ${request.body}` : ""}`;
    outgoing.on("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      done(code, code === "timeout" ? unanswered : undefined);
    });
    outgoing.end(request.body);
  });
}

/** Whether a read is GET /api/queue, the read that answers 304 to a reader who has its version (`conditional`). */
export const isQueueRead = (request: Pick<Request, "method" | "path">) => request.method === "GET" && request.path.startsWith("/api/queue");

/**
 * Requests at `rate` a second for `seconds`, evenly spaced, whatever the servers answer: `next()`
 * gives each one, and decisions (if any) are added at their own rate. `conditional`: each reader
 * (cookie) sends GET /api/queue with If-None-Match, the ETag it last got for that query.
 */
export async function openLoop(
  seconds: number,
  servers: ConsoleServer[],
  cookies: string[],
  rate: number,
  next: () => Request,
  decisions?: () => Request | undefined,
  { conditional = false } = {},
) {
  const etags = new Map<string, string>();
  const queueReads = { sent: 0, withEtag: 0, notModified: 0 };
  const sendOne = (server: ConsoleServer, agent: http.Agent, reader: number, request: Request, at: number) => {
    if (!conditional || !isQueueRead(request)) return send(server, agent, cookies[reader]!, request, at);
    queueReads.sent++;
    const key = `${reader} ${request.path}`;
    const known = etags.get(key);
    if (known) queueReads.withEtag++;
    return send(server, agent, cookies[reader]!, known ? { ...request, headers: { "if-none-match": known } } : request, at).then(
      (outcome) => {
        if (outcome.etag) etags.set(key, outcome.etag);
        if (outcome.status === "304") queueReads.notModified++;
        return outcome;
      },
    );
  };
  // No socket limit: a request never waits for an earlier one's socket (it would be a closed loop again).
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });
  const started = performance.now();
  const count = rate * seconds;
  const decisionCount = decisions ? DECISIONS_PER_SECOND * seconds : 0;
  const due = [
    ...Array.from({ length: count }, (_, i) => ({ at: started + (i * 1000) / rate, decision: false })),
    ...Array.from({ length: decisionCount }, (_, i) => ({ at: started + ((i + 0.5) * 1000) / DECISIONS_PER_SECOND, decision: true })),
  ].sort((a, b) => a.at - b.at);
  const pending: Array<Promise<Outcome>> = [];
  const sendLag: number[] = [];
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < due.length && due[sent]!.at <= now) {
        const { at, decision } = due[sent]!;
        const request = decision ? decisions!() : next();
        if (request) {
          sendLag.push(now - at);
          pending.push(sendOne(servers[sent % servers.length]!, agent, sent % cookies.length, request, at));
        }
        sent++;
      }
      if (sent < due.length) setTimeout(tick, Math.max(0, Math.min(5, due[sent]!.at - performance.now())));
      else resolve();
    };
    tick();
  });
  const outcomes = await Promise.all(pending);
  agent.destroy();
  const answered = outcomes.filter((o) => /^[23]\d\d$/.test(o.status));
  const reads = outcomes.filter((o) => o.kind !== "decision");
  const readsAnsweredInTime = reads.filter((o) => /^[23]\d\d$/.test(o.status) && o.latencyMs < REQUEST_TIMEOUT_MS);
  const statuses: Record<string, number> = {};
  for (const o of outcomes) statuses[`${o.kind} ${o.status}`] = (statuses[`${o.kind} ${o.status}`] ?? 0) + 1;
  const byKind: Record<string, ReturnType<typeof percentiles>> = {};
  for (const kind of new Set(outcomes.map((o) => o.kind)))
    byKind[kind] = percentiles(outcomes.filter((o) => o.kind === kind && /^[23]\d\d$/.test(o.status)).map((o) => o.latencyMs));
  const errors = outcomes.length - answered.length;
  const readErrors = reads.length - reads.filter((o) => /^[23]\d\d$/.test(o.status)).length;
  const decisionsSent = outcomes.length - reads.length;
  return {
    rate,
    seconds,
    sent: outcomes.length,
    /** Reads answered with 2xx/3xx, per second of the phase: short of `rate` when the servers could not keep up. */
    achievedRate: Math.round((readsAnsweredInTime.length / seconds) * 10) / 10,
    rateReached: readsAnsweredInTime.length >= RATE_REACHED * count,
    errors,
    errorRate: outcomes.length ? errors / outcomes.length : 0,
    readErrorRate: reads.length ? readErrors / reads.length : 0,
    /** Approvals sent, and those answered 200. */
    decisions: { sent: decisionsSent, approved: outcomes.filter((o) => o.kind === "decision" && o.status === "200").length },
    /** How late the client itself sent (its event loop shares the CPU with the servers). */
    sendLagMs: percentiles(sendLag),
    /** Every answered request (reads and decisions), from when it was due. */
    latencyMs: percentiles(answered.map((o) => o.latencyMs)),
    byKind,
    statuses,
    /** With `conditional`: GET /api/queue reads sent, those sent with an ETag (If-None-Match), those answered 304. */
    ...(conditional ? { queueReads } : {}),
    /** What failed: server errors (the start of their bodies) and requests never answered, each different one once with its count. */
    serverErrors: Object.entries(
      outcomes.reduce<Record<string, number>>(
        (seen, o) => (o.serverError ? { ...seen, [`${o.kind}: ${o.serverError}`]: (seen[`${o.kind}: ${o.serverError}`] ?? 0) + 1 } : seen),
        {},
      ),
    ).map(([text, count]) => `${text} ×${count}`),
  };
}

/**
 * Waits until every instance answers the floor promptly: requests a phase gave up on (timeouts) may
 * still be running on a server, and would be counted against the next phase.
 */
export async function drained(servers: ConsoleServer[], cookie: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  const started = performance.now();
  const deadline = started + DRAIN_LIMIT_MS;
  for (const server of servers) {
    while (performance.now() < deadline) {
      const outcome = await send(server, agent, cookie, { kind: "floor", method: "GET", path: "/api/health/session" }, performance.now());
      if (outcome.status === "200" && outcome.latencyMs < 100) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  agent.destroy();
  return Math.round((performance.now() - started) / 1000);
}

/* ---------- saturation: autocannon's closed loop on one instance ---------- */

/** `credential`: a session cookie, or other headers that sign the requests in (bench/token-floor.ts: an API token). */
export async function saturation(server: ConsoleServer, credential: string | Record<string, string>, requests: Request[], seconds: number) {
  const result = await autocannon({
    url: server.url,
    connections: SATURATION_CONNECTIONS,
    duration: seconds,
    timeout: REQUEST_TIMEOUT_MS / 1000,
    headers: { ...(typeof credential === "string" ? { cookie: credential } : credential), accept: "application/json" },
    requests: requests.map(({ method, path }) => ({ method, path })),
  });
  return {
    requestsPerSecond: Math.round((result.requests.total / result.duration) * 10) / 10,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
