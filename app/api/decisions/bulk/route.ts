/**
 * POST /api/decisions/bulk — Approve selected / Decline selected over HTTP.
 * Body: { action: "approve" | "decline", calls: [{ runId, toolCallId, agentId? }, …] (1 to 100, each
 * once), reason? (decline only) }. Answers 200 with one result per call, in request order
 * ({ ok: true, data: { batchId, action, results, counts } }), whatever became of each call; a request
 * refused as a whole answers like POST /api/decisions (400, 401, 403, 413 too_many_calls, 429).
 *
 * The same cheap refusals first as POST /api/decisions (lib/actions/json-decision-request.ts).
 */
import { NextResponse } from "next/server";
import { decisionFailure, openJsonDecisionRequest } from "@/lib/actions/json-decision-request";
import { decideBulkFor, refuseBulk } from "@/lib/actions/run-bulk-decision";

export async function POST(request: Request) {
  const opened = await openJsonDecisionRequest(request, refuseBulk);
  if (!opened.ok) return opened.response;
  const result = await decideBulkFor(opened.decider, opened.body, "api");
  return result.ok ? NextResponse.json(result) : decisionFailure(result.error);
}
