/**
 * One source of changes per instance, fanned out in process to that instance's streams: however many
 * tabs are open, an instance holds one PostgreSQL LISTEN connection, or on SQLite reads the feed's
 * head once every LIVE_POLL_MS (a team's own Mastra server writes the same file from another
 * process, so an in-process signal alone would miss its changes). Started by the first stream and
 * stopped a little after the last one closes.
 */
import pg from "pg";
import { databaseProvider } from "../db/database-url.ts";
import { getDb, type Db } from "../db/client.ts";
import { numericSetting } from "../numeric-settings.mjs";
import { changesAfter, changesOfTransactions, FEED_READ_LIMIT, feedHead } from "./feed.ts";
import { keepPresence, PRESENCE_REFRESH_MS } from "./presence.ts";
import type { QueueChangeDto } from "./types.ts";

export type ChangeListener = (changes: QueueChangeDto[]) => void;

/** A source stays up this long after its last stream, so a reloading tab does not restart it. */
const LINGER_MS = 30_000;
const RECONNECT_MAX_MS = 30_000;

interface Source {
  stop(): void;
}

export class LiveHub {
  private readonly listeners = new Set<ChangeListener>();
  private source: Promise<Source> | null = null;
  private lingering: ReturnType<typeof setTimeout> | null = null;
  /** The highest position handed out, for catching up after a lost connection. */
  private seen = 0;
  /** The ids of the streams this instance holds: their open calls (lib/live/presence.ts) are kept alive. */
  private readonly held = new Set<string>();
  private keeping: ReturnType<typeof setInterval> | null = null;

  constructor(readonly databaseUrl: string) {}

  /** While the stream is held, its tab's open calls do not expire; returns the release. */
  holdStream(streamId: string): () => void {
    this.held.add(streamId);
    this.keeping ??= setInterval(() => {
      if (this.held.size === 0) return;
      void getDb(this.databaseUrl)
        .then((db) => keepPresence(db, [...this.held]))
        .catch((error: unknown) => console.error("[live] keeping open calls failed:", error));
    }, PRESENCE_REFRESH_MS);
    this.keeping.unref?.();
    return () => {
      this.held.delete(streamId);
      if (this.held.size > 0 || !this.keeping) return;
      clearInterval(this.keeping);
      this.keeping = null;
    };
  }

  /** Adds a listener; resolves once changes committed from now on will reach it. */
  async subscribe(listener: ChangeListener): Promise<() => void> {
    this.listeners.add(listener);
    if (this.lingering) clearTimeout(this.lingering);
    this.lingering = null;
    this.source ??= this.start();
    try {
      await this.source;
    } catch (error) {
      this.listeners.delete(listener);
      this.source = null;
      throw error;
    }
    return () => this.unsubscribe(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  private unsubscribe(listener: ChangeListener) {
    if (!this.listeners.delete(listener) || this.listeners.size > 0 || !this.source) return;
    this.lingering = setTimeout(() => {
      const source = this.source;
      this.source = null;
      this.lingering = null;
      void source?.then((started) => started.stop()).catch(() => {});
    }, LINGER_MS);
    this.lingering.unref?.();
  }

  private emit(changes: QueueChangeDto[]) {
    if (changes.length === 0) return;
    for (const change of changes) this.seen = Math.max(this.seen, change.position);
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (error) {
        console.error("[live] a stream failed to take changes:", error);
      }
    }
  }

  private async start(): Promise<Source> {
    const db = await getDb(this.databaseUrl);
    this.seen = await feedHead(db);
    return databaseProvider(this.databaseUrl) === "postgres" ? this.listen(db) : this.poll(db);
  }

  /** Changes after the highest seen, in pages: what a poll, or a reconnected listener, missed. */
  private async catchUp(db: Db) {
    for (;;) {
      const changes = await changesAfter(db, this.seen);
      this.emit(changes);
      if (changes.length < FEED_READ_LIMIT) return;
    }
  }

  private poll(db: Db): Source {
    let busy = false;
    const timer = setInterval(async () => {
      if (busy) return;
      busy = true;
      try {
        const head = await feedHead(db);
        // A feed behind us was replaced (a restored file): follow it rather than wait for it to catch up.
        if (head < this.seen) this.seen = head;
        else if (head > this.seen) await this.catchUp(db);
      } catch (error) {
        console.error("[live] reading the change feed failed:", error);
      } finally {
        busy = false;
      }
    }, numericSetting("LIVE_POLL_MS"));
    timer.unref?.();
    return { stop: () => clearInterval(timer) };
  }

  private async listen(db: Db): Promise<Source> {
    let stopped = false;
    let client: pg.Client | null = null;
    let retryMs = 500;
    const pending = new Set<bigint>();
    let flushing: Promise<void> = Promise.resolve();
    // One read for every transaction announced meanwhile, in the order they committed.
    const flush = () =>
      (flushing = flushing.then(async () => {
        if (pending.size === 0) return;
        const transactions = [...pending];
        pending.clear();
        try {
          this.emit(await changesOfTransactions(db, transactions));
        } catch (error) {
          // Not lost: the next announcement's read, or a reconnection's catch-up, reads past them.
          console.error("[live] reading announced changes failed:", error);
        }
      }));
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: this.databaseUrl });
      next.on("notification", (message) => {
        if (!/^[0-9]{1,20}$/.test(message.payload ?? "")) return;
        pending.add(BigInt(message.payload!));
        void flush();
      });
      next.on("error", () => {});
      next.on("end", () => {
        if (stopped || client !== next) return;
        client = null;
        const wait = retryMs;
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
        setTimeout(() => void reconnect(), wait).unref?.();
      });
      await next.connect();
      await next.query("LISTEN queue_changes");
      client = next;
      retryMs = 500;
    };
    const reconnect = async () => {
      if (stopped) return;
      try {
        await connect();
        // Announcements sent while no one listened are lost: read what was committed meanwhile.
        await (flushing = flushing.then(() => this.catchUp(db)));
      } catch (error) {
        console.error("[live] listening for changes failed, trying again:", (error as Error).message);
        setTimeout(() => void reconnect(), retryMs).unref?.();
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
      }
    };
    await connect();
    return {
      stop: () => {
        stopped = true;
        void client?.end().catch(() => {});
      },
    };
  }
}

/** The hub of this process for `databaseUrl`, kept on globalThis as Next's several bundles share one process. */
export function liveHub(databaseUrl: string): LiveHub {
  const holder = globalThis as unknown as { __approvalsConsoleLiveHubs?: Map<string, LiveHub> };
  const hubs = (holder.__approvalsConsoleLiveHubs ??= new Map());
  let hub = hubs.get(databaseUrl);
  if (!hub) hubs.set(databaseUrl, (hub = new LiveHub(databaseUrl)));
  return hub;
}
