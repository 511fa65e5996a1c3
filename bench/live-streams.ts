/**
 * Live streams (GET /api/events/stream) as the benchmarks hold them: many idle ones whose events are
 * read and thrown away (a reader that stops reading would be cut by the server). A watched stream,
 * its events stamped with the time they arrived, is the tests' (tests/helpers/live-stream.ts).
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
