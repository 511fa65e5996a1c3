/**
 * What every decision request shares, from the server actions and the JSON API alike: who asks and
 * whether they may, the refusal budget (lib/audit/refusal-limit.ts), the input check, every refusal
 * audited within that budget, then the decision module. Not a server action itself; the verb-noun
 * action files and app/api/decisions call it.
 *
 * The order is what keeps a refusal cheap: the session is checked before anything else is read, a
 * client over its budget is turned away before any database work, and an anonymous caller leaves a
 * row of a few hundred bytes (no payloads, ids cut short), not what it sent.
 */
import { headers } from "next/headers";
import type { z } from "zod";
import { appendAudit, auditCredentialOf, type AuditEntry, type DecisionVia } from "../audit/log.ts";
import { admitRequest, countRefusal, refusalClient, refusalsPerMinute } from "../audit/refusal-limit.ts";
import { actorLabel, type Actor, type NamedToken } from "../auth/session.ts";
import { clientAddress } from "../http/client-address.ts";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { describeNamedCall } from "../decisions/checks.ts";
import { decide } from "../decisions/decide.ts";
import type { Decision, DecisionOutcome } from "../decisions/types.ts";
import { authorize, type Authorization } from "./authorize.ts";
import { parseInput, runAction, type ActionError, type ActionResult } from "./result.ts";

type DecisionAction = Decision["action"];
type DecisionFields<A extends DecisionAction> = Omit<Extract<Decision, { action: A }>, "action">;

/** How much of an id an anonymous refusal keeps: enough to recognise it, too little to fill a disk. */
const ANONYMOUS_ID_CHARS = 128;

export interface DecisionRequest {
  actor: Actor | null;
  client: { key: string; anonymous: boolean };
  address: string;
  /** Where the request came from, kept on its refusals (decisions carry it through decide()). */
  via?: DecisionVia;
  /** A bearer token that was refused but exists (revoked, expired): its refusals name it. */
  refusedToken?: NamedToken;
}

/**
 * Opens a decision request: who asks and whether they may, and whether they have refusals left. A
 * client over its budget gets `rate_limited` here (audited once a minute) before any other work.
 * An access problem is returned, not yet audited: the caller records it with what was sent, which
 * the JSON API reads only from a signed-in caller.
 */
export async function openDecisionRequest(
  address: string,
): Promise<{ ok: true; request: DecisionRequest; access: Authorization } | { ok: false; error: ActionError }> {
  const access = await authorize("decide");
  const request: DecisionRequest = {
    actor: access.actor,
    client: refusalClient(access.actor, address),
    address,
    refusedToken: access.ok ? undefined : access.token,
  };
  const admission = admitRequest(request.client);
  if (!admission.limited) return { ok: true, request, access };
  const error: ActionError = {
    code: "rate_limited",
    message: `Too many refused requests: more than ${refusalsPerMinute()} in a minute. Try again in ${admission.retryAfterSeconds} s.`,
    retryAfterSeconds: admission.retryAfterSeconds,
  };
  if (admission.firstTurnedAway) {
    await writeAudit(
      refusalEntry(request, "unknown", undefined, {
        code: error.code,
        message: `${error.message} Further requests from this client are turned away and not recorded until the minute is over.`,
      }),
    );
  }
  return { ok: false, error };
}

/** Checks `input` and carries the decision out for an opened request; a refusal is audited and counted. */
export async function decideFor<A extends DecisionAction>(
  request: DecisionRequest & { actor: Actor },
  action: A,
  schema: z.ZodType<DecisionFields<A>>,
  input: unknown,
  via: DecisionVia = "console",
): Promise<ActionResult<DecisionOutcome>> {
  const parsed = parseInput(schema, input);
  if (!parsed.ok) {
    await auditRefusal(request, action, input, parsed.error);
    return parsed;
  }
  const result = await runAction(`${action}ToolCall`, () =>
    decide({ action, ...parsed.data } as Decision, {
      reviewer: actorLabel(request.actor),
      via,
      credential: auditCredentialOf(request.actor.credential),
    }),
  );
  // decide() audits its own refusals; they still use up the client's budget.
  if (!result.ok && isRefusal(result.error.code)) countRefusal(request.client);
  return result;
}

/** A refusal that is not the request's fault does not count against the client. */
function isRefusal(code: string): boolean {
  return code !== "agent_failed" && code !== "internal";
}

/** The whole path for a server action: open, check, decide. */
export async function runDecision<A extends DecisionAction>(
  action: A,
  schema: z.ZodType<DecisionFields<A>>,
  input: unknown,
  via: DecisionVia = "console",
  address?: string,
): Promise<ActionResult<DecisionOutcome>> {
  const opened = await openDecisionRequest(address ?? (await requestClientAddress()));
  if (!opened.ok) return { ok: false, error: opened.error };
  opened.request.via = via;
  if (!opened.access.ok) {
    await auditRefusal(opened.request, action, input, opened.access.error);
    return { ok: false, error: opened.access.error };
  }
  return decideFor({ ...opened.request, actor: opened.access.actor }, action, schema, input, via);
}

/** Audits a refused request if the client's budget allows, and counts it either way. */
export async function auditRefusal(request: DecisionRequest, action: string, input: unknown, error: ActionError): Promise<void> {
  if (!countRefusal(request.client)) return;
  await writeAudit(refusalEntry(request, action, input, error), Boolean(request.actor));
}

function refusalEntry(request: DecisionRequest, action: string, input: unknown, error: Pick<ActionError, "code" | "message">): AuditEntry {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value : value === undefined ? "" : (JSON.stringify(value) ?? ""));
  const known = (["approve", "decline", "resume"] as const).find((name) => name === action) ?? "unknown";
  if (!request.actor) {
    const token = request.refusedToken;
    return {
      ...(token ? { authMethod: "token", tokenId: token.id, tokenName: token.name } : {}),
      reviewer: "anonymous",
      action: known,
      outcome: "refused",
      code: error.code,
      runId: text(fields.runId).slice(0, ANONYMOUS_ID_CHARS),
      toolCallId: text(fields.toolCallId).slice(0, ANONYMOUS_ID_CHARS),
      message: `${error.message} (client ${request.address.slice(0, 64)})`,
      via: request.via,
    };
  }
  return {
    reviewer: actorLabel(request.actor),
    action: known,
    outcome: "refused",
    code: error.code,
    runId: text(fields.runId),
    toolCallId: text(fields.toolCallId),
    reason: typeof fields.reason === "string" ? fields.reason : undefined,
    resumeData: fields.resumeData,
    message: error.message,
    via: request.via,
    ...auditCredentialOf(request.actor.credential),
  };
}

/**
 * Writes a refusal. For a signed-in caller (within the refusal budget) the run and call it named are
 * looked up, so the history names their agent and tool; an anonymous refusal costs no lookup.
 */
async function writeAudit(entry: AuditEntry, lookUpCall = false): Promise<void> {
  try {
    const db = await getDb();
    const known = lookUpCall ? await describeNamedCall(db, entry.runId, entry.toolCallId, databaseUrlFromEnv()) : {};
    await appendAudit(db, { ...entry, ...known });
  } catch (error) {
    console.error("[audit]", error);
  }
}

/** The caller's address inside a server action; "unknown" outside a request (scripts, tests). */
export async function requestClientAddress(): Promise<string> {
  try {
    return clientAddress(await headers());
  } catch {
    return "unknown";
  }
}
