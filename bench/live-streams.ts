/**
 * Live streams (GET /api/events/stream) as the benchmarks hold them: many idle ones whose events are
 * read and thrown away (a reader that stops reading would be cut by the server), and one watched
 * stream whose events are parsed and stamped with the time they arrived.
 */
import http from "node:http";
import type { ConsoleServer } from "../tests/helpers/console-server.ts";

export interface HeldStreams {
  /** Streams the servers let in (200). */
  opened: number;
  /** Other answers, by status (429 rate_limited, 503 server_busy…). */
  refused: Record<string, number>;
  /** How many of those let in are still open (none ended, none cut). */
  stillOpen(): number;
  close(): void;
}

/** Opens `count` streams round robin over the servers and the readers (cookies), 50 at a time. */
export async function holdStreams(servers: ConsoleServer[], cookies: string[], count: number): Promise<HeldStreams> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  const refused: Record<string, number> = {};
  let opened = 0;
  let open = 0;
  let closing = false;
  const openOne = (i: number) =>
    new Promise<void>((resolve) => {
      const url = new URL(servers[i % servers.length]!.url);
      const request = http.get(
        {
          host: url.hostname,
          port: url.port,
          path: "/api/events/stream",
          agent,
          headers: { cookie: cookies[i % cookies.length]!, accept: "text/event-stream" },
        },
        (response) => {
          if (response.statusCode !== 200) {
            refused[String(response.statusCode)] = (refused[String(response.statusCode)] ?? 0) + 1;
            response.resume();
            return resolve();
          }
          opened++;
          open++;
          response.on("close", () => open--);
          response.on("error", () => {});
          response.resume(); // read and drop: every change, every heartbeat
          resolve();
        },
      );
      request.on("error", (error) => {
        const code = (error as NodeJS.ErrnoException).code ?? "error";
        if (!closing) refused[code] = (refused[code] ?? 0) + 1;
        resolve();
      });
      requests.push(request);
    });
  for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => openOne(i + j)));
  return {
    opened,
    refused,
    stillOpen: () => open,
    close: () => {
      closing = true;
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
}

export interface TimedEvent {
  id?: string;
  event: string;
  data: string;
  /** performance.now() when its last line arrived. */
  at: number;
}

/** One stream whose events are kept with the time each arrived; `waitFor` finds one already seen or still to come. */
export async function watchStream(server: ConsoleServer, cookie: string) {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/api/events/stream`, {
    headers: { cookie, accept: "text/event-stream" },
    signal: abort.signal,
  });
  if (response.status !== 200) throw new Error(`GET /api/events/stream: ${response.status} ${await response.text()}`);
  const events: TimedEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      const reader = response.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const at = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event: TimedEvent = { event: "message", data: "", at };
          let fields = 0;
          for (const line of buffer.slice(0, end).split("\n")) {
            const [, field, value] = /^([a-z]+): ?(.*)$/.exec(line) ?? [];
            if (field === "id") event.id = value;
            else if (field === "event") event.event = value!;
            else if (field === "data") event.data = value!;
            else continue;
            fields++;
          }
          buffer = buffer.slice(end + 2);
          if (fields) events.push(event);
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // closed
    }
  })();
  return {
    events,
    async waitFor(match: (event: TimedEvent) => boolean, timeoutMs = 30_000): Promise<TimedEvent> {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (performance.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms (${events.length} events seen)`);
        await new Promise<void>((resolve) => {
          const wake = () => (waiters.delete(wake), resolve());
          waiters.add(wake);
          setTimeout(wake, 250);
        });
      }
    },
    close: () => abort.abort(),
  };
}
