/**
 * POST /api/decisions/bulk — Approve selected / Decline selected over HTTP.
 * Body: { action: "approve" | "decline", calls: [{ runId, toolCallId, agentId? }, …] (1 to 100, each
 * once), reason? (decline only) }. Answers 200 with one result per call, in request order
 * ({ ok: true, data: { batchId, action, results, counts } }), whatever became of each call; a request
 * refused as a whole answers like POST /api/decisions (400, 401, 403, 413 too_many_calls, 429).
 *
 * The same cheap refusals first as app/api/decisions/route.ts: a cross-site post, then the session
 * and the refusal budget before a byte of the body is read; then at most MAX_REQUEST_BODY_BYTES of it.
 */
import { NextResponse } from "next/server";
import { httpStatusOf } from "@/lib/errors";
import type { ActionError } from "@/lib/actions/result";
import { decideBulkFor, refuseBulk } from "@/lib/actions/run-bulk-decision";
import { auditRefusal, openDecisionRequest } from "@/lib/actions/run-decision";
import { crossSiteProblem } from "@/lib/http/same-origin";
import { clientAddress } from "@/lib/http/client-address";
import { readJsonBody } from "@/lib/http/json-body";
import { MAX_REQUEST_BODY_BYTES } from "@/lib/http/limits.mjs";

export async function POST(request: Request) {
  const crossSite = crossSiteProblem(request);
  if (crossSite) return failure({ code: "cross_site", message: crossSite });
  const opened = await openDecisionRequest(clientAddress(request.headers));
  if (!opened.ok) return failure(opened.error);
  const { access } = opened;
  if (!access.ok && !access.actor) {
    // Anonymous: answered without reading the body, and recorded without it.
    await auditRefusal(opened.request, "unknown", undefined, access.error);
    return failure(access.error);
  }

  const body = await readJsonBody(request, MAX_REQUEST_BODY_BYTES);
  if (!body.ok) {
    const error: ActionError = { code: body.code, message: body.message };
    await refuseBulk(opened.request, undefined, error);
    return failure(error);
  }
  if (!access.ok) {
    await refuseBulk(opened.request, body.value, access.error);
    return failure(access.error);
  }
  const result = await decideBulkFor({ ...opened.request, actor: access.actor }, body.value);
  return result.ok ? NextResponse.json(result) : failure(result.error);
}

function failure(error: ActionError) {
  const headers = error.retryAfterSeconds ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
  return NextResponse.json({ ok: false, error }, { status: httpStatusOf(error.code), headers });
}
