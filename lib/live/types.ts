/**
 * What a live queue stream (GET /api/events/stream) sends: one `change` event per row of the change
 * feed, its id the feed position. Browser-safe: the runs page filters these (components/runs).
 */

/** waiting | left | decision.<state> | assigned | approved | rated | presence */
export type QueueChangeKind = string;

/** Someone who has a call open right now (lib/live/presence.ts). */
export interface PresenceViewerDto {
  userId: string;
  name: string;
}

export interface QueueChangeDto {
  /** The feed position, also the SSE event's id (a stream resumes after it with Last-Event-ID). */
  position: number;
  kind: QueueChangeKind;
  runId: string | null;
  toolCallId: string | null;
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
  /** A `presence` change: everyone who has the call open now (the reader filters themselves out). */
  viewers?: PresenceViewerDto[];
}

/** The `ready` event's data: where the stream starts, and what its tab names it by. */
export interface StreamReadyDto {
  head: number;
  /** The stream's id, for POST /api/events/presence. */
  stream: string;
  /** The signed-in user's id: their own presence is not someone else's. */
  me: string;
}

/** The stream's path, for the browser's EventSource. */
export const LIVE_STREAM_PATH = "/api/events/stream";
/** Where a tab says which calls it has open. */
export const PRESENCE_PATH = "/api/events/presence";
