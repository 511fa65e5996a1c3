/**
 * A bulk decision request (the decideInBulk action and POST /api/decisions/bulk): opened like any
 * decision request (run-decision.ts: session, refusal budget), then checked as a whole, then each
 * call decided on its own by lib/decisions/bulk.ts.
 *
 * Against the refusal budget a bulk request is ONE request: refused as a whole, or holding refused
 * or already-decided calls, it counts once, however many calls it named. A request refused as a
 * whole (no access, bad input, too many calls) leaves one entry; what its refused calls leave is
 * bounded in lib/decisions/bulk-refusals.ts (a real call's row once per reviewer and code, the
 * calls naming nothing one row for the request).
 */
import { auditCredentialOf, type DecisionVia } from "../audit/log.ts";
import { actorLabel, type Actor } from "../auth/session.ts";
import { countRefusal } from "../audit/refusal-limit.ts";
import { decideBatch } from "../decisions/bulk.ts";
import { bulkInput } from "../decisions/inputs.ts";
import { LIMITS } from "../decisions/limits.ts";
import type { BulkOutcome } from "../decisions/types.ts";
import { parseInput, runAction, type ActionError, type ActionResult } from "./result.ts";
import { auditRefusal, openDecisionRequest, requestClientAddress, type DecisionRequest } from "./run-decision.ts";

/** How many calls a refusal's audit entry names, as a preview of what was asked. */
const PREVIEWED_CALLS = 5;

/** Checks a signed-in reviewer's bulk request and decides each of its calls. */
export async function decideBulkFor(
  request: DecisionRequest & { actor: Actor },
  input: unknown,
  via: DecisionVia = "console",
): Promise<ActionResult<BulkOutcome>> {
  // Counted before the schema reads the list: a request for 10,000 calls costs no more than one for 101.
  const requested = callsOf(input)?.length ?? 0;
  if (requested > LIMITS.bulkCalls) {
    const error: ActionError = {
      code: "too_many_calls",
      message: `At most ${LIMITS.bulkCalls} calls per request; this one has ${requested}. Send them in several requests.`,
    };
    await refuseBulk(request, input, error);
    return { ok: false, error };
  }
  const parsed = parseInput(bulkInput, input);
  if (!parsed.ok) {
    await refuseBulk(request, input, parsed.error);
    return parsed;
  }
  const result = await runAction("decideInBulk", () =>
    decideBatch(parsed.data, { reviewer: actorLabel(request.actor), via, credential: auditCredentialOf(request.actor.credential) }),
  );
  // Its refused calls are audited (bulk-refusals.ts); the request uses up one refusal of the client's budget.
  if (result.ok && result.data.counts.refused + result.data.counts.already_decided > 0) countRefusal(request.client);
  return result;
}

/** The whole path for the server action: open, check, decide. */
export async function runBulkDecision(input: unknown): Promise<ActionResult<BulkOutcome>> {
  const opened = await openDecisionRequest(await requestClientAddress());
  if (!opened.ok) return { ok: false, error: opened.error };
  if (!opened.access.ok) {
    await refuseBulk(opened.request, input, opened.access.error);
    return { ok: false, error: opened.access.error };
  }
  return decideBulkFor({ ...opened.request, actor: opened.access.actor }, input);
}

/**
 * Audits a bulk request refused as a whole (one entry, within the client's budget). A signed-in
 * caller's entry names the action, the number of calls and the first few of them; an anonymous
 * caller's names nothing it sent.
 */
export async function refuseBulk(request: DecisionRequest, input: unknown, error: ActionError): Promise<void> {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const action = fields.action === "approve" || fields.action === "decline" ? fields.action : "unknown";
  if (!request.actor) return auditRefusal(request, action, undefined, error);
  const calls = callsOf(input) ?? [];
  const named = calls.slice(0, PREVIEWED_CALLS).map((call) => {
    const { runId, toolCallId } = (typeof call === "object" && call !== null ? call : {}) as Record<string, unknown>;
    return `${String(runId)}/${String(toolCallId)}`;
  });
  const what = `Bulk ${action === "unknown" ? "request" : action}${calls.length ? ` of ${calls.length} call${calls.length === 1 ? "" : "s"}` : ""}`;
  const preview = calls.length
    ? ` Calls: ${named.join(", ")}${calls.length > named.length ? ` and ${calls.length - named.length} more` : ""}.`
    : "";
  await auditRefusal(request, action, { reason: fields.reason }, { ...error, message: `${what} refused: ${error.message}${preview}` });
}

function callsOf(input: unknown): unknown[] | undefined {
  const calls = typeof input === "object" && input !== null ? (input as { calls?: unknown }).calls : undefined;
  return Array.isArray(calls) ? calls : undefined;
}
