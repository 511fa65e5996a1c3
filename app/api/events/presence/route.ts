/**
 * POST /api/events/presence { stream, calls: [{ runId, toolCallId }] } — the calls open in one tab
 * right now (at most 20; those that do not wait are left out), `stream` being the id its live
 * stream's `ready` event gave it (lib/live/presence.ts). Answers who has each of them open; the
 * other tabs hear it on their streams. The tab's calls close when its stream ends.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { setPresenceOperation } from "@/lib/actions/presence-operations";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return serveOperation(request, setPresenceOperation, { body: true });
}
