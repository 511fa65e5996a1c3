/**
 * Every refused attempt is audited, so without a limit anybody could grow the log (and the disk)
 * as fast as they can send requests. Each client (a signed-in user, else a client address) gets
 * REFUSALS_PER_MINUTE audited refusals a minute; after that its requests are answered 429 before
 * any work is done and only one more row says that the client is being limited. Anonymous clients
 * together get ANONYMOUS_REFUSALS_PER_MINUTE audited rows a minute, however many addresses they
 * rotate through. Counted per process in a bounded map: a refusal costs a map lookup, never a
 * database write; with several console instances the bounds apply per instance.
 */
import { numericSetting } from "../numeric-settings.mjs";

const WINDOW_MS = 60_000;
/** Most clients tracked at once; the oldest windows are forgotten first. */
const MAX_TRACKED_CLIENTS = 10_000;
const ANONYMOUS = "anonymous:*";

export function refusalsPerMinute(): number {
  return numericSetting("REFUSALS_PER_MINUTE");
}

export function anonymousRefusalsPerMinute(): number {
  return numericSetting("ANONYMOUS_REFUSALS_PER_MINUTE");
}

interface Window {
  startedAt: number;
  refusals: number;
  /** Requests turned away with 429 in this window. */
  limited: number;
}

const windows = ((globalThis as { __approvalsConsoleRefusals?: Map<string, Window> }).__approvalsConsoleRefusals ??= new Map());

function windowOf(key: string, now: number): Window {
  let window = windows.get(key);
  if (!window || now - window.startedAt >= WINDOW_MS) {
    windows.delete(key);
    if (windows.size >= MAX_TRACKED_CLIENTS) windows.delete(windows.keys().next().value!);
    window = { startedAt: now, refusals: 0, limited: 0 };
    windows.set(key, window);
  }
  return window;
}

/** Who a refusal is counted against: the signed-in user, else the client's address. */
export function refusalClient(actor: { id: string } | null, address: string): { key: string; anonymous: boolean } {
  return actor ? { key: `user:${actor.id}`, anonymous: false } : { key: `address:${address}`, anonymous: true };
}

export type Admission =
  | { limited: false }
  /** `firstTurnedAway`: audit this one (once per window), so the log says the client was limited. */
  | { limited: true; retryAfterSeconds: number; firstTurnedAway: boolean };

/** Checked before a request does any work: a client that used up its refusals waits. */
export function admitRequest(client: { key: string }, now = Date.now()): Admission {
  const window = windowOf(client.key, now);
  if (window.refusals < refusalsPerMinute()) return { limited: false };
  window.limited++;
  return {
    limited: true,
    retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000)),
    firstTurnedAway: window.limited === 1,
  };
}

/** Counts a refusal; true when it may be audited (within this client's and, if anonymous, everyone's budget). */
export function countRefusal(client: { key: string; anonymous: boolean }, now = Date.now()): boolean {
  const window = windowOf(client.key, now);
  window.refusals++;
  if (window.refusals > refusalsPerMinute()) return false;
  if (!client.anonymous) return true;
  return ++windowOf(ANONYMOUS, now).refusals <= anonymousRefusalsPerMinute();
}
