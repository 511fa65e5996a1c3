/**
 * GET /api/queue?resourceId=…&threadId=…&noThread=1&agentId=…&from=…&to=…&overdue=1&assigned=me&sort=oldest|newest&page=…&perPage=…
 * — the review queue as the runs page shows it: whole threads (perPage counts threads), their
 * matching calls with each call's decision state, totals of threads and calls. Strict where the page
 * is lenient: an invalid parameter is a 400 that says why. GET /api/runs stays the contract's listing of runs.
 * Answers carry an ETag (lib/live/etag.ts): sent back in If-None-Match, a read of a queue where nothing
 * changed is a 304 without a body.
 */
import { NextResponse } from "next/server";
import { authorize } from "@/lib/actions/authorize";
import { parseInput, runAction } from "@/lib/actions/result";
import { getDb } from "@/lib/db/client";
import { httpStatusOf } from "@/lib/errors";
import { etagMatches, etagOf, queueVersion } from "@/lib/live/etag";
import { getQueuePage } from "@/lib/queue/views";
import { queueQuery } from "@/lib/search-params";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const access = await authorize("read");
  if (!access.ok) return NextResponse.json({ ok: false, error: access.error }, { status: httpStatusOf(access.error.code) });
  const query = parseInput(queueQuery, Object.fromEntries(new URL(request.url).searchParams));
  if (!query.ok) return NextResponse.json(query, { status: httpStatusOf(query.error.code) });
  const etag = etagOf(await queueVersion(await getDb(), access.actor.id, query.data, { scope: query.data }));
  const headers = { etag, "cache-control": "private, no-cache" };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  const result = await runAction("readQueue", () => getQueuePage(query.data, access.actor.id));
  return NextResponse.json(result, { status: result.ok ? 200 : httpStatusOf(result.error.code), headers: result.ok ? headers : {} });
}
