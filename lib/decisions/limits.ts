/**
 * How much a reviewer may send with a decision. Plain values, no zod: the browser's forms show and
 * check them as the server's schemas (inputs.ts) enforce them.
 */
import { ID_MAX_LENGTH } from "../safe-text.ts";

export const LIMITS = {
  idLength: ID_MAX_LENGTH,
  reasonLength: 2_000,
  /** Resume data as JSON text, in bytes. */
  resumeDataBytes: 64 * 1024,
  resumeDataDepth: 32,
  /** Calls one bulk request may decide (POST /api/decisions/bulk, the decideInBulk action). */
  bulkCalls: 100,
} as const;
