/**
 * What the three decision actions share: access check, input check, both refusals audited, then
 * the decision module. Not a server action itself; the verb-noun action files call it.
 */
import type { z } from "zod";
import { actorLabel } from "../auth/session.ts";
import { auditInvalidRequest, decide, type Decision, type DecisionOutcome } from "../runs/decisions.ts";
import { authorize } from "./authorize.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

type DecisionFields<A extends Decision["action"]> = Omit<Extract<Decision, { action: A }>, "action">;

export async function runDecision<A extends Decision["action"]>(
  action: A,
  schema: z.ZodType<DecisionFields<A>>,
  input: unknown,
): Promise<ActionResult<DecisionOutcome>> {
  const access = await authorize("decide");
  if (!access.ok) {
    await auditInvalidRequest(action, input, access.error.message, {
      reviewer: access.actor ? actorLabel(access.actor) : "anonymous",
      code: access.error.code,
    }).catch((error) => console.error("[audit]", error));
    return { ok: false, error: access.error };
  }
  const reviewer = actorLabel(access.actor);
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const refusal = invalidInput(parsed.error);
    await auditInvalidRequest(action, input, refusal.error.message, { reviewer }).catch((error) => console.error("[audit]", error));
    return refusal;
  }
  return runAction(`${action}ToolCall`, () => decide({ action, ...parsed.data } as Decision, { reviewer }));
}
