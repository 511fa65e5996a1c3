/** Types of admission.mjs (plain JavaScript so server.mjs can import it). */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface AdmissionStats {
  admitted: number;
  queued: number;
  refusedFull: number;
  refusedWaited: number;
  abandoned: number;
  /** Streams cut because what they wrote waited unsent past maxStreamWriteMs. */
  streamsCut: number;
  running: number;
  /** Streams that count as running now, writing. */
  streamsWriting: number;
  waiting: number;
}

export declare function createAdmission(options: {
  maxConcurrent: number;
  maxQueued: number;
  maxWaitMs: number;
  /** A stream whose events wait unsent this long is cut (default 30,000). */
  maxStreamWriteMs?: number;
  refuse: (request: IncomingMessage, response: ServerResponse) => void;
}): {
  admit(request: IncomingMessage, response: ServerResponse, run: () => void, options?: { untilHeaders?: boolean }): void;
  stats(): AdmissionStats;
};
