/**
 * POST /api/decisions — the HTTP face of the decision actions, for scripts and CI checks.
 * Body: { action: "approve" | "decline" | "resume" | "decline_and_suggest" | "approve_and_trust", runId, toolCallId,
 * agentId?, reason?, resumeData?, args?, confirmMayHaveRun?, duration?, sameArguments?, timeZone? } (resumeData and
 * args as JSON text, like the console's editors; duration, sameArguments and timeZone for approve_and_trust).
 *
 * Cheap refusals first, before a byte of the body is read (lib/actions/json-decision-request.ts).
 */
import { NextResponse } from "next/server";
import type { ActionError } from "@/lib/actions/result";
import { decisionFailure, openJsonDecisionRequest } from "@/lib/actions/json-decision-request";
import { auditRefusal, decideFor } from "@/lib/actions/run-decision";
import { suggestFor } from "@/lib/actions/run-suggestion";
import { trustFor } from "@/lib/actions/run-trust";
import { approveInput, declineInput, resumeInput } from "@/lib/decisions/inputs";

export async function POST(request: Request) {
  const opened = await openJsonDecisionRequest(request, (decisionRequest, body, error) => {
    const { action, ...input } = fieldsOf(body);
    return auditRefusal(decisionRequest, String(action), input, error);
  });
  if (!opened.ok) return opened.response;
  const { decider } = opened;
  const { action, ...input } = fieldsOf(opened.body);
  const result =
    action === "approve"
      ? await decideFor(decider, "approve", approveInput, input, "api")
      : action === "decline"
        ? await decideFor(decider, "decline", declineInput, input, "api")
        : action === "resume"
          ? await decideFor(decider, "resume", resumeInput, input, "api")
          : action === "decline_and_suggest"
            ? await suggestFor(decider, input, "api")
            : action === "approve_and_trust"
              ? await trustFor(decider, input, "api")
              : await refuseUnknownAction(decider, input);
  return result.ok ? NextResponse.json(result) : decisionFailure(result.error);
}

function fieldsOf(body: unknown): Record<string, unknown> {
  return (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
}

async function refuseUnknownAction(request: Parameters<typeof auditRefusal>[0], input: unknown) {
  const error: ActionError = {
    code: "invalid_input",
    message: 'action must be "approve", "decline", "resume", "decline_and_suggest" or "approve_and_trust".',
  };
  await auditRefusal(request, "unknown", input, error);
  return { ok: false as const, error };
}
