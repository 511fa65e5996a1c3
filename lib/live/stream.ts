/**
 * GET /api/events/stream's body: a server-sent-events stream of the change feed. It subscribes to
 * the instance's hub first, then replays what the reader missed since Last-Event-ID, so nothing
 * committed in between falls through; a reader too far behind (pruned, or more than a page of
 * changes) gets one `reset` event and refetches instead. Heartbeat comments keep proxies from closing
 * an idle stream; a reader that stops reading is cut once MAX_UNREAD_BYTES wait for it.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { getDb } from "../db/client.ts";
import { databaseProvider } from "../db/database-url.ts";
import { numericSetting } from "../numeric-settings.mjs";
import { changesAfter, FEED_READ_LIMIT, feedHead, feedTail } from "./feed.ts";
import { liveHub } from "./hub.ts";
import { endPresence } from "./presence.ts";
import type { QueueChangeDto, StreamReadyDto } from "./types.ts";

/** Bytes queued for a reader that does not read before its stream is cut (a page of changes fits many times). */
export const MAX_UNREAD_BYTES = 1_048_576;

/**
 * On PostgreSQL a position is taken before its transaction commits, so a change can commit after one
 * numbered higher: a resumed stream replays this many positions before Last-Event-ID too (a reader
 * may see a change twice, never miss one). SQLite's writers take turns: no margin.
 */
const POSTGRES_RESUME_MARGIN = 100;

/** A feed position as Last-Event-ID (or ?lastEventId=) carries it: plain digits. */
export const lastEventIdSchema = z
  .string()
  .regex(/^[0-9]{1,15}$/, "lastEventId must be a feed position: up to 15 decimal digits")
  .transform(Number);

export const streamQuery = z.object({ lastEventId: lastEventIdSchema.optional() }).strict();

const encoder = new TextEncoder();

function changeEvent(change: QueueChangeDto): string {
  return `id: ${change.position}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`;
}

/**
 * `userId`: the signed-in reader, told back in `ready` (their own presence is not someone else's).
 * `release` runs once the stream ends, however it ends; so does closing what its tab had open.
 */
export async function openLiveStream(
  databaseUrl: string,
  userId: string,
  lastEventId: number | undefined,
  signal: AbortSignal,
  release: () => void = () => {},
): Promise<Response> {
  const db = await getDb(databaseUrl);
  const hub = liveHub(databaseUrl);
  const streamId = randomUUID();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const endOpenCalls = () =>
    void endPresence(db, streamId).catch((error: unknown) => console.error("[live] closing a stream's open calls failed:", error));
  const cleanups: Array<() => void> = [release, hub.holdStream(streamId), endOpenCalls];
  const close = () => {
    if (closed) return;
    closed = true;
    for (const cleanup of cleanups) cleanup();
    try {
      controller.close();
    } catch {
      // already closed by the reader going away
    }
  };
  const write = (text: string) => {
    if (closed) return;
    controller.enqueue(encoder.encode(text));
    if ((controller.desiredSize ?? 0) < -MAX_UNREAD_BYTES) close();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      cancel: close,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 65_536 }),
  );
  signal.addEventListener("abort", close, { once: true });

  // Changes the hub hands over while the replay runs wait for it; the replay's are not sent twice.
  let held: QueueChangeDto[] | null = [];
  const replayed = new Set<number>();
  cleanups.push(
    await hub.subscribe((changes) => {
      if (held) held.push(...changes);
      else for (const change of changes) if (!replayed.has(change.position)) write(changeEvent(change));
    }),
  );
  try {
    write(`retry: 2000\n\n`);
    const head = await feedHead(db);
    let resumeAt = head;
    if (lastEventId !== undefined) {
      const margin = databaseProvider(databaseUrl) === "postgres" ? POSTGRES_RESUME_MARGIN : 0;
      const from = Math.max(0, lastEventId - margin);
      const tail = await feedTail(db);
      const changes = lastEventId <= head ? await changesAfter(db, from) : [];
      const pruned = tail !== null && lastEventId < head && tail > lastEventId + 1;
      if (lastEventId > head || pruned || changes.length === FEED_READ_LIMIT) write(`event: reset\ndata: {}\n\n`);
      else {
        // Never behind where the reader already was: a reconnection before any change resumes there.
        resumeAt = Math.max(head, lastEventId);
        for (const change of changes) {
          replayed.add(change.position);
          write(changeEvent(change));
        }
      }
    }
    // A reader told to reset starts again from the head, whatever it sent.
    const ready: StreamReadyDto = { head, stream: streamId, me: userId };
    write(`id: ${resumeAt}\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);
    const waiting = held;
    held = null;
    for (const change of waiting) if (!replayed.has(change.position)) write(changeEvent(change));
  } catch (error) {
    // The database failed mid-replay: nothing of this stream may stay subscribed or counted.
    close();
    throw error;
  }
  const heartbeat = setInterval(() => write(`: heartbeat\n\n`), numericSetting("LIVE_HEARTBEAT_MS"));
  cleanups.push(() => clearInterval(heartbeat));
  if (signal.aborted) close();
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
