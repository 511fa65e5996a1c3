"use client";

/**
 * The runs page's one live stream (GET /api/events/stream, lib/live): calls `refresh` when a change
 * concerns what the page shows (with those changes, or null when anything may have changed; when,
 * read-scheduler.ts says), and reports whether the stream is healthy so the list can stop polling.
 * A stream that cannot be opened (signed out, a busy or restarting server, a proxy that refuses
 * event streams) is tried again after 1, 2, 4… seconds, at most a minute apart; meanwhile the
 * caller falls back to a slow poll. A stream the browser reconnects by itself sends Last-Event-ID and
 * is replayed what it missed; one opened anew resumes from the last position it saw, the first one
 * from where the server read the page's first data.
 *
 * Only while the tab is visible: a hidden tab lets its stream go and resumes it, from the last
 * position it saw, when shown again. A browser holds six HTTP/1.1 connections to a server and each
 * stream keeps one, so six console tabs that all kept theirs left a seventh unable to load at all.
 */
import { useEffect, useRef, useState } from "react";
import { LIVE_STREAM_PATH, type QueueChangeDto, type StreamReadyDto } from "@/lib/live/types";
import { livePresence } from "./live-presence";
import { readScheduler } from "./read-scheduler";

/** How often the list is read while the stream is down. */
export const FALLBACK_POLL_MS = 30_000;
const RETRY_MAX_MS = 60_000;
/** Positions remembered to skip a change replayed twice (a resumed stream on PostgreSQL may). */
const REMEMBERED = 512;

export function useLiveQueue(
  /** true or "now": read at once; "elsewhere": read soon, throttled (read-scheduler.ts); false: not at all. */
  concerns: (change: QueueChangeDto) => boolean | "now" | "elsewhere",
  /** The changes that concerned the page since the last call; null: a reset or a reopened stream, anything may have changed. */
  refresh: (changes: QueueChangeDto[] | null) => void,
  /** Where the page's first data was read: the first stream resumes there. */
  since: number | null = null,
  /** Told of each change once, before `concerns` is asked about it. */
  observe?: (change: QueueChangeDto) => void,
): { live: boolean } {
  const [live, setLive] = useState(false);
  const latest = useRef({ concerns, refresh, observe });
  latest.current = { concerns, refresh, observe };

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let lastId: string | null = since === null ? null : String(since);
    let stopped = false;
    // Hidden: no stream until the tab is shown again (a tab opened in the background starts so).
    let paused = false;
    const seen = new Set<number>();
    const reads = readScheduler((changes) => latest.current.refresh(changes));
    const open = () => {
      const current = new EventSource(lastId === null ? LIVE_STREAM_PATH : `${LIVE_STREAM_PATH}?lastEventId=${encodeURIComponent(lastId)}`);
      source = current;
      current.addEventListener("ready", (event) => {
        lastId = (event as MessageEvent).lastEventId || lastId;
        // The open calls go (again) under this stream's id: the server closed those of the last one.
        livePresence()?.ready(JSON.parse((event as MessageEvent<string>).data) as StreamReadyDto);
        // Opened anew after a failure: anything may have changed while no stream was open.
        if (failures > 0) reads.soon();
        failures = 0;
        setLive(true);
      });
      current.addEventListener("change", (event) => {
        const message = event as MessageEvent<string>;
        lastId = message.lastEventId || lastId;
        const change = JSON.parse(message.data) as QueueChangeDto;
        livePresence()?.apply(change);
        if (seen.has(change.position)) return;
        seen.add(change.position);
        if (seen.size > REMEMBERED) seen.delete(seen.values().next().value!);
        latest.current.observe?.(change);
        const concern = latest.current.concerns(change);
        if (concern === "elsewhere") reads.later(change);
        else if (concern) reads.soon(change);
      });
      current.addEventListener("reset", () => reads.soon());
      current.addEventListener("error", () => {
        setLive(false);
        livePresence()?.lost();
        // CONNECTING: the browser tries again by itself, with Last-Event-ID. CLOSED: it gave up.
        if (current.readyState !== EventSource.CLOSED || stopped || paused) return;
        current.close();
        failures++;
        retry = setTimeout(open, Math.min(1_000 * 2 ** (failures - 1), RETRY_MAX_MS));
      });
    };
    // The server closes this tab's open calls with the stream.
    const letGo = () => {
      clearTimeout(retry);
      source?.close();
      source = null;
      livePresence()?.lost();
    };
    const followVisibility = () => {
      if (document.visibilityState === "hidden" && !paused) {
        paused = true;
        letGo();
        setLive(false);
      } else if (document.visibilityState === "visible" && paused) {
        paused = false;
        open();
      }
    };
    document.addEventListener("visibilitychange", followVisibility);
    if (document.visibilityState === "hidden") paused = true;
    else open();
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", followVisibility);
      letGo();
      reads.dispose();
    };
    // One effect for the page's life (its streams follow the tab's visibility): `since` only matters to the first.
  }, []);

  return { live };
}
