/**
 * POST /api/decisions — the HTTP face of the decision actions, for scripts and CI checks.
 * Body: { action: "approve" | "decline" | "resume", runId, toolCallId, agentId?, reason?, resumeData?,
 * confirmMayHaveRun? } (resumeData as JSON text, like the console's editor).
 *
 * Cheap refusals first: a cross-site post, then the session and the refusal budget, all before a
 * byte of the body is read; then the body, never more than MAX_REQUEST_BODY_BYTES of it (server.mjs refuses larger ones before they get here).
 */
import { NextResponse } from "next/server";
import { httpStatusOf } from "@/lib/errors";
import type { ActionError } from "@/lib/actions/result";
import { auditRefusal, decideFor, openDecisionRequest } from "@/lib/actions/run-decision";
import { crossSiteProblem } from "@/lib/http/same-origin";
import { clientAddress } from "@/lib/http/client-address";
import { readJsonBody } from "@/lib/http/json-body";
import { MAX_REQUEST_BODY_BYTES } from "@/lib/http/limits.mjs";
import { approveInput, declineInput, resumeInput } from "@/lib/decisions/inputs";

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
    await auditRefusal(opened.request, "unknown", undefined, error);
    return failure(error);
  }
  const { action, ...input } = (typeof body.value === "object" && body.value !== null ? body.value : {}) as Record<string, unknown>;
  if (!access.ok) {
    await auditRefusal(opened.request, String(action), input, access.error);
    return failure(access.error);
  }
  const decider = { ...opened.request, actor: access.actor };
  const result =
    action === "approve"
      ? await decideFor(decider, "approve", approveInput, input)
      : action === "decline"
        ? await decideFor(decider, "decline", declineInput, input)
        : action === "resume"
          ? await decideFor(decider, "resume", resumeInput, input)
          : await refuseUnknownAction(decider, input);
  return result.ok ? NextResponse.json(result) : failure(result.error);
}

async function refuseUnknownAction(request: Parameters<typeof auditRefusal>[0], input: unknown) {
  const error: ActionError = { code: "invalid_input", message: 'action must be "approve", "decline" or "resume".' };
  await auditRefusal(request, "unknown", input, error);
  return { ok: false as const, error };
}

function failure(error: ActionError) {
  const headers = error.retryAfterSeconds ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
  return NextResponse.json({ ok: false, error }, { status: httpStatusOf(error.code), headers });
}
