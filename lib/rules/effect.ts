/** What a matching rule does to one call. Browser-safe: the rule form words its dry run with it. */
import type { CallKind, Effect, RuleDefinition } from "./validations.ts";

/** A rule only approves or declines a call that needs approval: an input request it matches is left to a person ("ask"). */
export function effectOn(rule: Pick<RuleDefinition, "effect">, kind: CallKind): Effect {
  return (rule.effect === "approve" || rule.effect === "decline") && kind !== "approval" ? "ask" : rule.effect;
}
