/**
 * Which rule decides a call: the first enabled rule, in list order, whose every field and condition
 * holds. Pure (no database, no clock) and browser-safe; regular expressions run on re2js, a
 * linear-time engine, so a pattern like `(a+)+$` on a long argument takes time in proportion to
 * the argument, never exponential.
 *
 * A rule's fields: agentId (the call's agent or, for a workflow run, its workflow's name), toolName,
 * resource (the call's resourceId, exactly or as a prefix), callKind ("approval" for a call that
 * needs approval, "input" for one that waits for data). A null field matches any call. A rule with
 * an end (`expiresAt`, a reviewer's "Approve and trust", lib/rules/trust.ts) matches nothing from
 * then on: every evaluation says when it happens (`now`), since this module reads no clock.
 *
 * Conditions compare the value at a path in the call's arguments:
 * - equals: the same number, string, boolean or null (=== ; an object or array never equals).
 * - in: equals one of the listed values.
 * - <, <=, >, >=: both numbers (numeric) or both strings (by UTF-16 code units); anything else fails.
 * - matches: the value is a string in which the pattern is found (anywhere: anchor with ^ and $).
 * - exists: the path leads to a value (null counts; a missing key or index does not).
 */
import { RE2JS } from "re2js";
import { parsePath, valueAt, type PathStep } from "./path.ts";
import type { CallKind, Condition, RuleDefinition } from "./validations.ts";

/** What the matcher knows of a waiting call: the columns the store keeps, and its arguments. */
export interface RuleCall {
  agentId: string;
  workflowName?: string | null;
  toolName?: string | null;
  resourceId?: string | null;
  kind: CallKind;
  args: unknown;
}

type RuleFields = Pick<RuleDefinition, "enabled" | "agentId" | "toolName" | "resource" | "resourceMatch" | "callKind" | "conditions"> & {
  /** When the rule ends (ISO); null or absent: never (every rule an admin writes). */
  expiresAt?: string | null;
};

interface CompiledCondition {
  steps: PathStep[];
  test: (value: unknown) => boolean;
}

export interface CompiledRule<R extends RuleFields = RuleDefinition> {
  rule: R;
  conditions: CompiledCondition[];
  /** The rule's end in ms since the epoch (Infinity: none). */
  endsAt: number;
}

/** Whether a rule still matches at `now`: one with an end matches nothing from that moment on. */
export function isLive(rule: Pick<RuleFields, "expiresAt">, now: Date): boolean {
  return endOf(rule) > now.getTime();
}

const endOf = (rule: Pick<RuleFields, "expiresAt">) => (rule.expiresAt ? Date.parse(rule.expiresAt) : Infinity);

function compareWith(expected: unknown, holds: (order: number) => boolean) {
  return (value: unknown) => {
    if (typeof value === "number" && typeof expected === "number") return holds(value < expected ? -1 : value > expected ? 1 : 0);
    if (typeof value === "string" && typeof expected === "string") return holds(value < expected ? -1 : value > expected ? 1 : 0);
    return false;
  };
}

const isScalar = (value: unknown) => value === null || ["string", "number", "boolean"].includes(typeof value);

function compileCondition(condition: Condition): CompiledCondition {
  const steps = parsePath(condition.path);
  if (!steps) throw new Error(`Not a path: ${condition.path}`);
  const expected = condition.value;
  switch (condition.op) {
    case "equals":
      return { steps, test: (value) => isScalar(value) && value === expected };
    case "in": {
      const options = new Set(expected as unknown[]);
      return { steps, test: (value) => isScalar(value) && options.has(value) };
    }
    case "<":
      return { steps, test: compareWith(expected, (order) => order < 0) };
    case "<=":
      return { steps, test: compareWith(expected, (order) => order <= 0) };
    case ">":
      return { steps, test: compareWith(expected, (order) => order > 0) };
    case ">=":
      return { steps, test: compareWith(expected, (order) => order >= 0) };
    case "matches": {
      const pattern = RE2JS.compile(expected as string);
      return { steps, test: (value) => typeof value === "string" && pattern.matcher(value).find() };
    }
    case "exists":
      return { steps, test: (value) => value !== undefined };
  }
}

/** Compiles rules once (paths parsed, patterns built) for many calls; keeps their order. */
export function compileRules<R extends RuleFields>(rules: readonly R[]): CompiledRule<R>[] {
  return rules.map((rule) => ({ rule, conditions: rule.conditions.map(compileCondition), endsAt: endOf(rule) }));
}

/** Whether one rule's fields and conditions hold for the call at `now` (enabled or not; an ended rule never matches). */
export function ruleMatches<R extends RuleFields>(compiled: CompiledRule<R>, call: RuleCall, now: Date): boolean {
  const { rule } = compiled;
  if (compiled.endsAt <= now.getTime()) return false;
  if (rule.agentId !== null && rule.agentId !== call.agentId && rule.agentId !== call.workflowName) return false;
  if (rule.toolName !== null && rule.toolName !== call.toolName) return false;
  if (rule.callKind !== null && rule.callKind !== call.kind) return false;
  if (rule.resource !== null) {
    const resource = call.resourceId ?? null;
    if (resource === null) return false;
    if (rule.resourceMatch === "prefix" ? !resource.startsWith(rule.resource) : resource !== rule.resource) return false;
  }
  return compiled.conditions.every((condition) => condition.test(valueAt(call.args, condition.steps)));
}

/** The first enabled rule that matches the call at `now`, or null (a person decides). */
export function firstMatch<R extends RuleFields>(rules: readonly CompiledRule<R>[], call: RuleCall, now: Date): R | null {
  for (const compiled of rules) {
    if (compiled.rule.enabled && ruleMatches(compiled, call, now)) return compiled.rule;
  }
  return null;
}
