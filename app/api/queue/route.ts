/**
 * GET /api/queue?resourceId=…&threadId=…&noThread=1&agentId=…&from=…&to=…&overdue=1&assigned=me&sort=oldest|newest&page=…&perPage=…
 * — the review queue as the runs page shows it: whole threads (perPage counts threads), their
 * matching calls with each call's decision state, totals of threads and calls. Strict where the page
 * is lenient: an invalid parameter is a 400 that says why. GET /api/runs stays the contract's listing of runs.
 */
import { NextResponse } from "next/server";
import { authorize } from "@/lib/actions/authorize";
import { parseInput, runAction, type ActionResult } from "@/lib/actions/result";
import { httpStatusOf } from "@/lib/errors";
import type { QueuePageDto } from "@/lib/queue/dto";
import { getQueuePage } from "@/lib/queue/views";
import { queueQuery } from "@/lib/search-params";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const result = await readQueue(Object.fromEntries(new URL(request.url).searchParams));
  return NextResponse.json(result, { status: result.ok ? 200 : httpStatusOf(result.error.code) });
}

async function readQueue(params: Record<string, string>): Promise<ActionResult<QueuePageDto>> {
  const access = await authorize("read");
  if (!access.ok) return { ok: false, error: access.error };
  const query = parseInput(queueQuery, params);
  if (!query.ok) return query;
  return runAction("readQueue", () => getQueuePage(query.data, access.actor.id));
}
