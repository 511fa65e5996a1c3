/**
 * The JSON API's decision requests (POST /api/decisions and /api/decisions/bulk) share their cheap
 * refusals: a cross-site post, then the session and the refusal budget, all before a byte of the
 * body is read; then the body, never more than MAX_REQUEST_BODY_BYTES of it (server.mjs refuses
 * larger ones before they get here). An anonymous caller is answered without reading the body.
 */
import { NextResponse } from "next/server";
import type { Actor } from "../auth/session.ts";
import { httpStatusOf } from "../errors.ts";
import { clientAddress } from "../http/client-address.ts";
import { readJsonBody } from "../http/json-body.ts";
import { MAX_REQUEST_BODY_BYTES } from "../http/limits.mjs";
import { crossSiteProblem } from "../http/same-origin.ts";
import type { ActionError } from "./result.ts";
import { auditRefusal, openDecisionRequest, type DecisionRequest } from "./run-decision.ts";

/** Audits a refusal of a signed-in caller with what it sent (undefined: the body could not be read). */
export type RefuseWithBody = (request: DecisionRequest, body: unknown, error: ActionError) => Promise<void>;

export async function openJsonDecisionRequest(
  request: Request,
  refuse: RefuseWithBody,
): Promise<{ ok: false; response: NextResponse } | { ok: true; decider: DecisionRequest & { actor: Actor }; body: unknown }> {
  const crossSite = crossSiteProblem(request);
  if (crossSite) return { ok: false, response: decisionFailure({ code: "cross_site", message: crossSite }) };
  const opened = await openDecisionRequest(clientAddress(request.headers));
  if (!opened.ok) return { ok: false, response: decisionFailure(opened.error) };
  // Its refusals say they came through the API, as its decisions do (decideFor's `via`).
  opened.request.via = "api";
  const { access } = opened;
  if (!access.ok && !access.actor) {
    await auditRefusal(opened.request, "unknown", undefined, access.error);
    return { ok: false, response: decisionFailure(access.error) };
  }
  const body = await readJsonBody(request, MAX_REQUEST_BODY_BYTES);
  if (!body.ok) {
    const error: ActionError = { code: body.code, message: body.message };
    await refuse(opened.request, undefined, error);
    return { ok: false, response: decisionFailure(error) };
  }
  if (!access.ok) {
    await refuse(opened.request, body.value, access.error);
    return { ok: false, response: decisionFailure(access.error) };
  }
  return { ok: true, decider: { ...opened.request, actor: access.actor }, body: body.value };
}

/** A refused decision request as JSON, with its status (and Retry-After when the budget ran out). */
export function decisionFailure(error: ActionError): NextResponse {
  const headers = error.retryAfterSeconds ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
  return NextResponse.json({ ok: false, error }, { status: httpStatusOf(error.code), headers });
}
