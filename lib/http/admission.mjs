/**
 * Admission control for server.mjs: at most `maxConcurrent` requests are in Next at once, the next
 * `maxQueued` wait in arrival order, and the rest are refused at once with 503 `server_busy`.
 *
 * Why: Node starts every request it accepts, so past its capacity an instance shared its CPU among
 * ever more requests, each slower than its client would wait; the clients gave up, their requests
 * ran on anyway, and throughput collapsed to near nothing while the backlog of abandoned work
 * drained for minutes (bench/README.md, the open loop). With a bounded line, a request whose client
 * hung up while it waited is dropped without running, one that waited longer than `maxWaitMs` is
 * answered 503 without running, and the ones let in finish in the time they would take alone.
 *
 * A long-lived stream (the live queue) holds a place until it has answered its headers, then none
 * while it idles; while it writes (its events not yet handed to the connection) it counts as one
 * running request again, without waiting, so a burst sent to many streams slows what is let in next
 * rather than running beside it. At most half the places (rounded down) are taken that way, so
 * streams never shut reads out. A stream whose events wait unsent past `maxStreamWriteMs` (a reader
 * that stopped reading) is cut, giving its place back; the reader reconnects with Last-Event-ID.
 *
 * Plain JavaScript for server.mjs (types: admission.d.mts).
 */

/**
 * @param {{ maxConcurrent: number, maxQueued: number, maxWaitMs: number, maxStreamWriteMs?: number, refuse: (request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => void }} options
 */
export function createAdmission({ maxConcurrent, maxQueued, maxWaitMs, maxStreamWriteMs = 30_000, refuse }) {
  let running = 0;
  const maxStreamPlaces = Math.floor(maxConcurrent / 2);
  let streamPlaces = 0;
  /** @type {Array<{ request: any, response: any, run: () => void, since: number, gone: boolean, untilHeaders: boolean }>} */
  const line = [];
  let head = 0;
  const counts = { admitted: 0, queued: 0, refusedFull: 0, refusedWaited: 0, abandoned: 0, streamsCut: 0 };

  /** A place for a stream that writes, if streams hold fewer than their share: its release, or null. */
  function takeStreamPlace() {
    if (streamPlaces >= maxStreamPlaces) return null;
    streamPlaces++;
    running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      streamPlaces--;
      running--;
      next();
    };
  }

  /** Counts the response as running while what it wrote waits to be handed to its connection. */
  function countWhileWriting(response) {
    const write = response.write;
    let pending = 0;
    /** @type {(() => void) | null} */
    let releasePlace = null;
    /** @type {NodeJS.Timeout | undefined} */
    let stalled;
    const settle = () => {
      clearTimeout(stalled);
      stalled = undefined;
      releasePlace?.();
      releasePlace = null;
    };
    response.write = function (chunk, encoding, callback) {
      if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
      // Before its headers the stream still holds the place it was let in with.
      if (!this.headersSent) return write.call(this, chunk, encoding, callback);
      if (pending++ === 0) {
        releasePlace = takeStreamPlace();
        stalled = setTimeout(() => {
          counts.streamsCut++;
          response.destroy();
        }, maxStreamWriteMs);
      }
      return write.call(this, chunk, encoding, (error) => {
        if (--pending === 0) settle();
        callback?.(error);
      });
    };
    response.once("close", settle);
  }

  function start(entry) {
    running++;
    counts.admitted++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      running--;
      next();
    };
    // "close" comes once the response is sent or its connection is gone, whichever is first.
    entry.response.once("close", release);
    // A stream (the live queue) holds its place until it has answered its headers: its sign-in
    // check and replay wait in line like any read, then it stays open without holding a place.
    if (entry.untilHeaders) {
      // Counted from inside whatever Next wraps `write` in once it runs: its compression calls the
      // write it found with no callback, and the count needs to know when each write was taken.
      countWhileWriting(entry.response);
      const writeHead = entry.response.writeHead;
      entry.response.writeHead = function (...args) {
        release();
        return writeHead.apply(this, args);
      };
    }
    entry.run();
  }

  function next() {
    while (running < maxConcurrent && head < line.length) {
      const entry = line[head];
      line[head++] = undefined;
      if (head > 1_024 && head * 2 > line.length) {
        line.splice(0, head);
        head = 0;
      }
      if (entry.gone) {
        counts.abandoned++;
        continue;
      }
      if (Date.now() - entry.since > maxWaitMs) {
        counts.refusedWaited++;
        refuse(entry.request, entry.response);
        continue;
      }
      start(entry);
    }
  }

  // A line that does not move (every place held by long requests) still answers its old entries.
  setInterval(
    () => {
      const now = Date.now();
      while (head < line.length && (line[head].gone || now - line[head].since > maxWaitMs)) {
        const entry = line[head];
        line[head++] = undefined;
        if (entry.gone) counts.abandoned++;
        else {
          counts.refusedWaited++;
          refuse(entry.request, entry.response);
        }
      }
    },
    Math.max(50, Math.floor(maxWaitMs / 4)),
  ).unref();

  return {
    /**
     * Runs `run` now, or when a place frees up, or refuses the request. With `untilHeaders` its place
     * is freed as soon as its response's headers are written (a long-lived stream), not at its end,
     * and taken again only while it writes.
     */
    admit(request, response, run, { untilHeaders = false } = {}) {
      const entry = { request, response, run, since: Date.now(), gone: false, untilHeaders };
      if (running < maxConcurrent && head === line.length) return start(entry);
      if (line.length - head >= maxQueued) {
        counts.refusedFull++;
        return refuse(request, response);
      }
      counts.queued++;
      response.once("close", () => (entry.gone = true));
      line.push(entry);
    },
    /** What happened so far, and how many run and wait now. */
    stats() {
      return { ...counts, running, waiting: line.length - head, streamsWriting: streamPlaces };
    },
  };
}
