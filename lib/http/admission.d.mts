/** Types of admission.mjs (plain JavaScript so server.mjs can import it). */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface AdmissionStats {
  admitted: number;
  queued: number;
  refusedFull: number;
  refusedWaited: number;
  abandoned: number;
  running: number;
  waiting: number;
}

export declare function createAdmission(options: {
  maxConcurrent: number;
  maxQueued: number;
  maxWaitMs: number;
  refuse: (request: IncomingMessage, response: ServerResponse) => void;
}): {
  admit(request: IncomingMessage, response: ServerResponse, run: () => void, options?: { untilHeaders?: boolean }): void;
  stats(): AdmissionStats;
};
