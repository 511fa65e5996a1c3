/** A reader of GET /api/events/stream for tests: the server-sent events as they arrive, parsed. */
import type { ConsoleServer } from "./console-server.ts";

export interface StreamEvent {
  id?: string;
  event: string;
  data: string;
  /** performance.now() when the chunk holding its end arrived (the benchmarks time propagation by it). */
  at: number;
}

export interface LiveStream {
  status: number;
  events: StreamEvent[];
  /** Comment lines (heartbeats) seen so far. */
  comments: number;
  /** Resolves with the first event (already seen or still to come) that `match` accepts. */
  waitFor(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  lastEventId(): string | undefined;
  close(): void;
}

export async function openStream(
  server: ConsoleServer,
  cookie: string | null,
  headers: Record<string, string> = {},
  query = "",
): Promise<LiveStream> {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/api/events/stream${query}`, {
    headers: { ...(cookie ? { cookie } : {}), accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  const stream: LiveStream = {
    status: response.status,
    events,
    comments: 0,
    async waitFor(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const wake = () => (waiters.delete(wake), resolve());
          waiters.add(wake);
          setTimeout(wake, 200);
        });
      }
    },
    lastEventId: () => events.findLast((event) => event.id !== undefined)?.id,
    close: () => abort.abort(),
  };
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return stream;
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };
  void readEvents(
    response,
    (event) => {
      events.push(event);
      wakeAll();
    },
    () => stream.comments++,
  );
  return stream;
}

/** Parses a server-sent-events body until it ends (or fails: a connection cut counts as its end). */
async function readEvents(response: Response, onEvent: (event: StreamEvent) => void, onComment: () => void): Promise<void> {
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
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: StreamEvent = { event: "message", data: "", at };
        let fields = 0;
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) onComment();
          const [, field, value] = /^([a-z]+): ?(.*)$/.exec(line) ?? [];
          if (field === "id") event.id = value;
          if (field === "event") event.event = value!;
          if (field === "data") event.data = value!;
          if (field === "id" || field === "event" || field === "data") fields++;
        }
        if (fields > 0) onEvent(event);
      }
    }
  } catch {
    // closed
  }
}

/**
 * A reader that behaves as a browser's EventSource does: when its stream ends (the instance went
 * away), it connects again to the same URL every `retryMs`, sending Last-Event-ID, the last id it
 * was sent. `connections` counts the streams it opened; `events` holds every connection's, in order.
 */
export function followStream(url: string, cookie: string, retryMs = 200) {
  const abort = new AbortController();
  const events: StreamEvent[] = [];
  const state = { connections: 0, lastEventId: undefined as string | undefined };
  void (async () => {
    while (!abort.signal.aborted) {
      try {
        const headers: Record<string, string> = { cookie, accept: "text/event-stream" };
        if (state.lastEventId !== undefined) headers["last-event-id"] = state.lastEventId;
        const response = await fetch(`${url}/api/events/stream`, { headers, signal: abort.signal });
        if (response.status === 200) {
          state.connections++;
          await readEvents(
            response,
            (event) => {
              if (event.id !== undefined) state.lastEventId = event.id;
              events.push(event);
            },
            () => {},
          );
        } else await response.body?.cancel();
      } catch {
        // refused: the instance is down
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  })();
  return {
    events,
    get connections() {
      return state.connections;
    },
    get lastEventId() {
      return state.lastEventId;
    },
    /** Resolves with the first event from now or before that `match` accepts. */
    async waitFor(match: (event: StreamEvent) => boolean, timeoutMs = 30_000): Promise<StreamEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => abort.abort(),
  };
}

/** The change events' parsed data. */
export const changesIn = (stream: LiveStream) =>
  stream.events
    .filter((event) => event.event === "change")
    .map((event) => JSON.parse(event.data) as { position: number; kind: string; runId: string | null; threadId: string | null });
