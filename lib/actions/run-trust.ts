/**
 * An "Approve and trust" request (lib/rules/trust.ts), from the server action and the JSON API alike:
 * opened like every decision (who asks and whether they may decide: reviewers and admins, never
 * support; the refusal budget), its input checked with zod, every refusal audited within that
 * budget. "today" ends at midnight in the reviewer's zone: the one chosen on /profile, else the
 * browser's sent with the request, else UTC. Not a server action itself.
 */
import { auditCredentialOf, type DecisionVia } from "../audit/log.ts";
import { countRefusal } from "../audit/refusal-limit.ts";
import { actorLabel, type Actor } from "../auth/session.ts";
import { languagePreferenceOf, storedLanguagePreference } from "../i18n/preferences.ts";
import { DEFAULT_TIME_ZONE } from "../i18n/time-zones.ts";
import type { TrustOutcome } from "../rules/dto.ts";
import { approveAndTrust } from "../rules/trust.ts";
import { approveAndTrustInput } from "../rules/trust-input.ts";
import { parseInput, runAction, type ActionResult } from "./result.ts";
import { auditRefusal, openDecisionRequest, requestClientAddress, type DecisionRequest } from "./run-decision.ts";

/** Checks `input` and approves and trusts for an opened request; a refusal is audited and counted. */
export async function trustFor(
  request: DecisionRequest & { actor: Actor },
  input: unknown,
  via: DecisionVia = "console",
): Promise<ActionResult<TrustOutcome>> {
  const parsed = parseInput(approveAndTrustInput, input);
  if (!parsed.ok) {
    await auditRefusal(request, "approve", input, parsed.error);
    return parsed;
  }
  const { timeZone: browserZone, ...trust } = parsed.data;
  const result = await runAction("approveAndTrust", async () =>
    approveAndTrust(trust, {
      reviewer: actorLabel(request.actor),
      via,
      credential: auditCredentialOf(request.actor.credential),
      timeZone: (await chosenTimeZone(request.actor)) ?? browserZone ?? DEFAULT_TIME_ZONE,
    }),
  );
  // Its refusals are audited where they happen; they still use up the client's budget.
  if (!result.ok && result.error.code !== "agent_failed" && result.error.code !== "internal") countRefusal(request.client);
  return result;
}

/** The zone the reviewer chose on /profile, if any. */
async function chosenTimeZone(actor: Actor): Promise<string | null> {
  return (actor.storedLanguage ? storedLanguagePreference(actor.storedLanguage) : await languagePreferenceOf(actor.id)).timeZone;
}

/** The whole path for the server action: open, check, approve and trust. */
export async function runTrust(input: unknown): Promise<ActionResult<TrustOutcome>> {
  const opened = await openDecisionRequest(await requestClientAddress());
  if (!opened.ok) return { ok: false, error: opened.error };
  opened.request.via = "console";
  if (!opened.access.ok) {
    await auditRefusal(opened.request, "approve", input, opened.access.error);
    return { ok: false, error: opened.access.error };
  }
  return trustFor({ ...opened.request, actor: opened.access.actor }, input);
}
