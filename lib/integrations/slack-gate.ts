/**
 * The cheap refusals every request from Slack passes first, before anything is decided: the console
 * must know the signing secret (503 slack_not_configured), the client must have refusals left (the
 * console's refusal budget, lib/audit/refusal-limit.ts), the body must fit MAX_REQUEST_BODY_BYTES
 * (never read beyond it) and carry Slack's signature (401 invalid_signature). Each refusal is
 * counted, and audited only within the anonymous budget (a row of a few hundred bytes, no payload);
 * nothing else is written.
 */
import { NextResponse } from "next/server";
import { admitRequest, refusalClient } from "../audit/refusal-limit.ts";
import { auditRefusal, type DecisionRequest } from "../actions/run-decision.ts";
import type { ActionError } from "../actions/result.ts";
import { httpStatusOf } from "../errors.ts";
import { clientAddress } from "../http/client-address.ts";
import { readBodyBytes } from "../http/json-body.ts";
import { MAX_REQUEST_BODY_BYTES } from "../http/limits.mjs";
import { checkSlackSignature } from "../slack/signature.ts";
import { signingSecret } from "../slack/web.ts";

export type SlackRequest = { ok: true; form: URLSearchParams; request: DecisionRequest } | { ok: false; response: NextResponse };

export function slackFailure(error: ActionError): NextResponse {
  const headers = error.retryAfterSeconds ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
  return NextResponse.json({ ok: false, error }, { status: httpStatusOf(error.code), headers });
}

export async function openSlackRequest(request: Request): Promise<SlackRequest> {
  const secret = signingSecret();
  if (!secret) {
    const error: ActionError = {
      code: "slack_not_configured",
      message: "Slack is not set up on this console: SLACK_SIGNING_SECRET is not set.",
    };
    return { ok: false, response: slackFailure(error) };
  }
  const address = clientAddress(request.headers);
  const decisionRequest: DecisionRequest = { actor: null, client: refusalClient(null, address), address, via: "slack" };
  const admission = admitRequest(decisionRequest.client);
  if (admission.limited) {
    const error: ActionError = {
      code: "rate_limited",
      message: `Too many refused requests from this client. Try again in ${admission.retryAfterSeconds} s.`,
      retryAfterSeconds: admission.retryAfterSeconds,
    };
    return { ok: false, response: slackFailure(error) };
  }
  const refuse = async (error: ActionError): Promise<SlackRequest> => {
    await auditRefusal(decisionRequest, "unknown", undefined, error);
    return { ok: false, response: slackFailure(error) };
  };
  const body = await readBodyBytes(request, MAX_REQUEST_BODY_BYTES);
  if (!body) return refuse({ code: "payload_too_large", message: `The request body is larger than ${MAX_REQUEST_BODY_BYTES / 1024} KiB.` });
  const signature = checkSlackSignature(secret, request.headers, body);
  if (!signature.ok) return refuse({ code: "invalid_signature", message: signature.message });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return refuse({ code: "invalid_input", message: "The request body is not valid UTF-8." });
  }
  return { ok: true, form: new URLSearchParams(text), request: decisionRequest };
}
