/**
 * The runs page's side of presence (lib/live/presence.ts): the calls this tab has open, sent to the
 * server (POST /api/events/presence, naming the tab's live stream) a moment after they change, and
 * who else has each call open, from the server's answer and the stream's `presence` changes. The
 * reader's own user is never "someone else", in this tab or another. The server closes this tab's
 * calls when its stream ends; a new stream (a reconnection) is sent the open calls again.
 */
import { PRESENCE_PATH, type PresenceViewerDto, type QueueChangeDto, type StreamReadyDto } from "@/lib/live/types";

/** Opening a row and moving to the next one within this is one request. */
const SEND_AFTER_MS = 300;
const NOBODY: PresenceViewerDto[] = [];
const keyOf = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

export class LivePresence {
  private stream: string | null = null;
  private me: string | null = null;
  private readonly others = new Map<string, PresenceViewerDto[]>();
  private readonly open = new Map<string, { runId: string; toolCallId: string; count: number }>();
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** What was last sent, for which stream: the same again is not sent. */
  private sent: string | null = null;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** Who else has the call open now (a stable array until that changes). */
  othersOn = (runId: string, toolCallId: string): PresenceViewerDto[] => this.others.get(keyOf(runId, toolCallId)) ?? NOBODY;

  /** A stream (new, or opened again) is ready: its id is what the open calls are sent under. */
  ready({ stream, me }: StreamReadyDto) {
    if (stream !== this.stream) this.sent = null;
    this.stream = stream;
    this.me = me;
    this.schedule();
  }

  /** The stream ended: the server closed its calls; nothing is sent until the next one is ready. */
  lost() {
    this.stream = null;
    this.sent = null;
    clearTimeout(this.timer);
  }

  /** A change from the stream: a `presence` one says who has a call open now. */
  apply(change: QueueChangeDto) {
    if (change.kind !== "presence" || !change.runId || !change.toolCallId || !change.viewers) return;
    this.set(change.runId, change.toolCallId, change.viewers);
  }

  /** Whether this tab has the call open. */
  isOpen = (runId: string, toolCallId: string): boolean => this.open.has(keyOf(runId, toolCallId));

  /** This tab opened the call; returns its closing. */
  openCall(runId: string, toolCallId: string): () => void {
    const key = keyOf(runId, toolCallId);
    const entry = this.open.get(key) ?? { runId, toolCallId, count: 0 };
    entry.count++;
    this.open.set(key, entry);
    this.schedule();
    return () => {
      if (--entry.count <= 0) this.open.delete(key);
      this.schedule();
    };
  }

  private set(runId: string, toolCallId: string, viewers: PresenceViewerDto[]) {
    const others = viewers.filter((viewer) => viewer.userId !== this.me);
    const key = keyOf(runId, toolCallId);
    const before = this.others.get(key) ?? NOBODY;
    if (before.length === others.length && before.every((viewer, i) => viewer.userId === others[i]!.userId)) return;
    if (others.length === 0) this.others.delete(key);
    else this.others.set(key, others);
    for (const listener of this.listeners) listener();
  }

  private schedule() {
    clearTimeout(this.timer);
    if (this.stream) this.timer = setTimeout(() => void this.send(), SEND_AFTER_MS);
  }

  private async send() {
    const stream = this.stream;
    if (!stream) return;
    const calls = [...this.open.values()].map(({ runId, toolCallId }) => ({ runId, toolCallId }));
    const body = JSON.stringify({ stream, calls });
    // Nothing open, and nothing open on the server under this stream (a new one has none): no request.
    if (body === this.sent || (calls.length === 0 && this.sent === null)) return;
    this.sent = body;
    try {
      const response = await fetch(PRESENCE_PATH, { method: "POST", headers: { "content-type": "application/json" }, body });
      if (!response.ok) throw new Error(`${response.status}`);
      const answer = (await response.json()) as {
        data: { calls: Array<{ runId: string; toolCallId: string; viewers: PresenceViewerDto[] }> };
      };
      for (const call of answer.data.calls) this.set(call.runId, call.toolCallId, call.viewers);
    } catch {
      // Not shown to anyone: the next change of open calls, or the next stream, sends them again.
      if (this.sent === body) this.sent = null;
    }
  }
}

let pagePresence: LivePresence | null = null;

/** The document's one presence (a tab has one live stream), made on first use in the browser; none on the server. */
export function livePresence(): LivePresence | null {
  if (typeof window === "undefined") return null;
  return (pagePresence ??= new LivePresence());
}
