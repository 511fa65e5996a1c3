/**
 * What a live queue stream (GET /api/events/stream) sends: one `change` event per row of the change
 * feed, its id the feed position. Browser-safe: the runs page filters these (components/runs).
 */

/** waiting | left | decision.<state> | assigned | approved | rated */
export type QueueChangeKind = string;

export interface QueueChangeDto {
  /** The feed position, also the SSE event's id (a stream resumes after it with Last-Event-ID). */
  position: number;
  kind: QueueChangeKind;
  runId: string | null;
  toolCallId: string | null;
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
}

/** The stream's path, for the browser's EventSource. */
export const LIVE_STREAM_PATH = "/api/events/stream";
