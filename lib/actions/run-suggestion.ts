/**
 * A decline-and-suggest request (lib/suggestions/suggest.ts), from the server action and the JSON
 * API alike: opened like every decision (who asks and whether they may decide, the refusal budget),
 * its input checked with zod, every refusal audited within that budget. Not a server action itself.
 */
import type { Actor } from "../auth/session.ts";
import { actorLabel } from "../auth/session.ts";
import { auditCredentialOf, type DecisionVia } from "../audit/log.ts";
import { countRefusal } from "../audit/refusal-limit.ts";
import type { DecisionOutcome } from "../decisions/types.ts";
import { suggestInput } from "../suggestions/inputs.ts";
import { declineWithSuggestion } from "../suggestions/suggest.ts";
import { parseInput, runAction, type ActionResult } from "./result.ts";
import { auditRefusal, openDecisionRequest, requestClientAddress, type DecisionRequest } from "./run-decision.ts";

/** Checks `input` and declines with the suggestion for an opened request; a refusal is audited and counted. */
export async function suggestFor(
  request: DecisionRequest & { actor: Actor },
  input: unknown,
  via: DecisionVia = "console",
): Promise<ActionResult<DecisionOutcome>> {
  const parsed = parseInput(suggestInput, input);
  if (!parsed.ok) {
    await auditRefusal(request, "decline", input, parsed.error);
    return parsed;
  }
  const result = await runAction("declineAndSuggest", () =>
    declineWithSuggestion(parsed.data, {
      reviewer: actorLabel(request.actor),
      via,
      credential: auditCredentialOf(request.actor.credential),
    }),
  );
  // Its refusals are audited where they happen; they still use up the client's budget.
  if (!result.ok && result.error.code !== "agent_failed" && result.error.code !== "internal") countRefusal(request.client);
  return result;
}

/** The whole path for the server action: open, check, decline and suggest. */
export async function runSuggestion(input: unknown): Promise<ActionResult<DecisionOutcome>> {
  const opened = await openDecisionRequest(await requestClientAddress());
  if (!opened.ok) return { ok: false, error: opened.error };
  opened.request.via = "console";
  if (!opened.access.ok) {
    await auditRefusal(opened.request, "decline", input, opened.access.error);
    return { ok: false, error: opened.access.error };
  }
  return suggestFor({ ...opened.request, actor: opened.access.actor }, input);
}
