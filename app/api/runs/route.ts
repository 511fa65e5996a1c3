/**
 * GET /api/runs?resourceId=…&threadId=…&agentId=…&from=…&to=…&page=…&perPage=… — the runs page's
 * data as JSON, for scripts. Strict where the page is lenient: an invalid parameter is a 400 that
 * says why, not ignored.
 */
import { NextResponse } from "next/server";
import { authorize } from "@/lib/actions/authorize";
import { parseInput, runAction, type ActionResult } from "@/lib/actions/result";
import { httpStatusOf } from "@/lib/errors";
import type { RunsPageDto } from "@/lib/queue/dto";
import { getRunsPage } from "@/lib/queue/views";
import { runsQuery } from "@/lib/search-params";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const result = await listRuns(Object.fromEntries(new URL(request.url).searchParams));
  return NextResponse.json(result, { status: result.ok ? 200 : httpStatusOf(result.error.code) });
}

async function listRuns(params: Record<string, string>): Promise<ActionResult<RunsPageDto>> {
  const access = await authorize("read");
  if (!access.ok) return { ok: false, error: access.error };
  const query = parseInput(runsQuery, params);
  if (!query.ok) return query;
  return runAction("listRuns", () => getRunsPage(query.data));
}
