/** GET /api/runs?resourceId=…&threadId=…&agentId=…&from=…&to=…&page=…&perPage=… — the runs page's data as JSON. */
import { NextResponse } from "next/server";
import { listRuns } from "@/lib/actions/list-runs";
import { httpStatusOf } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const result = await listRuns(params);
  return NextResponse.json(result, { status: result.ok ? 200 : httpStatusOf(result.error.code) });
}
