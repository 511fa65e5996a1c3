/**
 * GET /api/events/stream[?lastEventId=N] — the live queue (lib/live): a server-sent-events stream
 * of what changed in the queue, for any signed-in reader. A reconnecting EventSource sends
 * Last-Event-ID (the header wins over the parameter); an invalid one is a 400 that says why. One
 * stream too many for the user (429) or the instance (503) is refused before it opens (lib/live/limits.ts).
 */
import { NextResponse } from "next/server";
import { authorize } from "@/lib/actions/authorize";
import { parseInput } from "@/lib/actions/result";
import { databaseUrlFromEnv } from "@/lib/db/client";
import { httpStatusOf } from "@/lib/errors";
import { takeStreamPlace } from "@/lib/live/limits";
import { openLiveStream, streamQuery } from "@/lib/live/stream";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const access = await authorize("read");
  if (!access.ok) return NextResponse.json({ ok: false, error: access.error }, { status: httpStatusOf(access.error.code) });
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const header = request.headers.get("last-event-id");
  const query = parseInput(streamQuery, header === null ? params : { ...params, lastEventId: header });
  if (!query.ok) return NextResponse.json(query, { status: httpStatusOf(query.error.code) });
  const place = takeStreamPlace(access.actor.id);
  if (!place.ok) return NextResponse.json(place, { status: httpStatusOf(place.error.code) });
  try {
    return await openLiveStream(databaseUrlFromEnv(), access.actor.id, query.data.lastEventId, request.signal, place.release);
  } catch (error) {
    place.release();
    throw error;
  }
}
