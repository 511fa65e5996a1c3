/**
 * GET /api/insights?period=7|30|90 (or from=YYYY-MM-DD&to=YYYY-MM-DD)&agentId=…&toolName=…&resourcePrefix=…&risk=…&timeZone=…&format=json|csv
 * — how oversight went in a period (lib/insights): the same figures as /insights, as JSON
 * (`{ ok, data }`) or, with format=csv, as a CSV download. An invalid parameter is a 400 naming it.
 */
import { NextResponse } from "next/server";
import { authorize } from "@/lib/actions/authorize";
import { readInsightsOperation } from "@/lib/actions/insights-operations";
import { runOperation } from "@/lib/actions/operation";
import { httpStatusOf } from "@/lib/errors";
import { insightsCsv } from "@/lib/insights/csv";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const access = await authorize(readInsightsOperation.permission);
  if (!access.ok) return NextResponse.json({ ok: false, error: access.error }, { status: httpStatusOf(access.error.code) });
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const result = await runOperation(readInsightsOperation, access.actor, params);
  if (!result.ok) return NextResponse.json(result, { status: httpStatusOf(result.error.code) });
  if (params.format !== "csv") return NextResponse.json(result);
  return new Response(insightsCsv(result.data), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="insights-${result.data.period.firstDay}-${result.data.period.lastDay}.csv"`,
    },
  });
}
