// The rule matcher (lib/rules/match.ts) against a brute-force reference written another way: every
// operator on generated argument shapes, combinations of two conditions, ordered lists with enabled
// and disabled rules; a rule's end; the schema's refusals; a catastrophic pattern on a 10,000-character argument.
import { describe, expect, it } from "vitest";
import { compileRules, firstMatch, isLive, ruleMatches, type RuleCall } from "../../lib/rules/match.ts";
import { ruleInputSchema, type Condition, type RuleDefinition } from "../../lib/rules/validations.ts";

// --- The reference: walks the path by splitting the text, compares by JSON text and plain JS. ---
function refLookup(args: unknown, path: string): { found: boolean; value?: unknown } {
  const parts = path.replace(/\[(\d+)\]/g, ".#$1").split(".");
  let current: unknown = args;
  for (const part of parts) {
    if (part.startsWith("#")) {
      const index = Number(part.slice(1));
      if (!Array.isArray(current) || !(index in current)) return { found: false };
      current = current[index];
    } else {
      if (typeof current !== "object" || current === null || Array.isArray(current)) return { found: false };
      if (!Object.keys(current).includes(part)) return { found: false };
      current = (current as Record<string, unknown>)[part];
    }
  }
  return { found: true, value: current };
}
function refCondition(args: unknown, c: Condition): boolean {
  const { found, value } = refLookup(args, c.path);
  if (c.op === "exists") return found;
  if (!found) return false;
  const scalar = value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
  if (c.op === "equals") return scalar && JSON.stringify(value) === JSON.stringify(c.value) && typeof value === typeof c.value;
  if (c.op === "in")
    return scalar && (c.value as unknown[]).some((v) => JSON.stringify(v) === JSON.stringify(value) && typeof v === typeof value);
  if (c.op === "matches") return typeof value === "string" && new RegExp(c.value as string).test(value);
  const sameType = (typeof value === "number" || typeof value === "string") && typeof value === typeof c.value;
  if (!sameType) return false;
  const [a, b] = [value as number | string, c.value as number | string];
  return { "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b }[c.op as "<" | "<=" | ">" | ">="];
}
function refFirst(rules: RuleDefinition[], call: RuleCall): RuleDefinition | null {
  const matching = rules.filter(
    (r) =>
      r.enabled &&
      [r.agentId === null || r.agentId === call.agentId || r.agentId === call.workflowName].every(Boolean) &&
      (r.toolName === null || r.toolName === call.toolName) &&
      (r.callKind === null || r.callKind === call.kind) &&
      (r.resource === null ||
        (call.resourceId != null &&
          (r.resourceMatch === "prefix" ? call.resourceId.slice(0, r.resource.length) === r.resource : call.resourceId === r.resource))) &&
      r.conditions.every((c) => refCondition(call.args, c)),
  );
  return matching[0] ?? null;
}

// --- Generated cases. ---
const ARG_VALUES: unknown[] = [0, 5, 10, 10.5, -3, "", "a", "abc", "b", "10", true, false, null, [1], { x: 1 }];
const ARGS: unknown[] = [
  ...ARG_VALUES.map((amount) => ({ amount, items: [{ sku: amount }] })),
  {},
  { items: [] },
  { amount: 5, items: [{ sku: "A-1" }, { sku: "B-2" }] },
  null,
  "text",
];
const OPERANDS: Record<Condition["op"], unknown[]> = {
  equals: [0, 5, "abc", true, null, "10"],
  in: [[5, 10], ["a", "b"], [null, false], [10.5]],
  "<": [5, 10, "b", 0],
  "<=": [5, 10, "b", -3],
  ">": [5, 0, "a", "10"],
  ">=": [5, 10.5, "abc", ""],
  matches: ["^a", "c$", "b", "^$", "^[0-9]+$", "A-\\d"],
  exists: [undefined],
};
const PATHS = ["amount", "items[0].sku", "items[1].sku", "missing", "amount.deeper"];
const ALL_CONDITIONS: Condition[] = PATHS.flatMap((path) =>
  (Object.keys(OPERANDS) as Condition["op"][]).flatMap((op) =>
    OPERANDS[op].map((value) => ({ path, op, ...(value === undefined ? {} : { value }) })),
  ),
);

function rule({ expiresAt = null, trustedBy = null, ...fields }: Partial<RuleDefinition>, id = "r"): RuleDefinition {
  const parsed = ruleInputSchema.parse({ name: id, effect: "ask", enabled: true, ...fields });
  return { ...parsed, id, position: 0, version: 1, expiresAt, trustedBy };
}
/** When every case is judged: the matcher reads no clock. */
const NOW = new Date("2026-12-06T12:00:00Z");
const call = (args: unknown, extra: Partial<RuleCall> = {}): RuleCall => ({
  agentId: "billing",
  toolName: "refund",
  resourceId: "cust-1",
  kind: "approval",
  args,
  ...extra,
});

describe("rule matching", () => {
  it("every operator agrees with the reference on every generated argument", () => {
    let checked = 0;
    for (const condition of ALL_CONDITIONS) {
      const rules = [rule({ conditions: [condition] })];
      const compiled = compileRules(rules);
      for (const args of ARGS) {
        expect(firstMatch(compiled, call(args), NOW)?.id ?? null, JSON.stringify({ condition, args })).toBe(
          refFirst(rules, call(args))?.id ?? null,
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it("all conditions must hold: pairs of conditions agree with the reference", () => {
    const sample = ALL_CONDITIONS.filter((_, index) => index % 3 === 0);
    let matched = 0;
    for (const first of sample) {
      for (const second of sample.filter((_, index) => index % 7 === 0)) {
        const rules = [rule({ conditions: [first, second] })];
        const compiled = compileRules(rules);
        for (const args of ARGS) {
          const expected = refFirst(rules, call(args))?.id ?? null;
          expect(firstMatch(compiled, call(args), NOW)?.id ?? null).toBe(expected);
          if (expected) matched++;
        }
      }
    }
    expect(matched).toBeGreaterThan(0);
  });

  it("the first enabled match wins, over agent, tool, resource (exact or prefix) and kind", () => {
    // mulberry32: a small seeded generator, so a failure replays.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
    };
    const pick = <T>(values: readonly T[]): T => values[random(values.length)]!;
    const calls: RuleCall[] = [];
    for (const agentId of ["billing", "support"])
      for (const toolName of ["refund", "lookup", null])
        for (const resourceId of ["cust-1", "cust-12", "other", null])
          for (const kind of ["approval", "input"] as const)
            calls.push(call(pick(ARGS), { agentId, toolName, resourceId, kind, workflowName: pick(["wf", null]) }));
    const winners = new Set<string | null>();
    for (let round = 0; round < 300; round++) {
      const rules = Array.from({ length: 4 }, (_, index) =>
        rule(
          {
            enabled: random(4) !== 0,
            agentId: pick([null, "billing", "support", "wf"]),
            toolName: pick([null, "refund", "lookup"]),
            resource: pick([null, "cust-1", "cust"]),
            resourceMatch: pick(["exact", "prefix"] as const),
            callKind: pick([null, "approval", "input"] as const),
            conditions: random(2) ? [pick(ALL_CONDITIONS)] : [],
          },
          `rule-${index}`,
        ),
      );
      const compiled = compileRules(rules);
      for (const candidate of calls) {
        const expected = refFirst(rules, candidate)?.id ?? null;
        winners.add(expected);
        expect(firstMatch(compiled, candidate, NOW)?.id ?? null).toBe(expected);
      }
    }
    // The generated lists exercised every position and "no rule".
    expect(winners).toEqual(new Set([null, "rule-0", "rule-1", "rule-2", "rule-3"]));
  });

  it("a rule with an end matches until that moment and nothing from then on, whatever else holds", () => {
    const ends = new Date(NOW.getTime() + 2_000);
    const rules = [rule({ effect: "approve", expiresAt: ends.toISOString() }, "trusted"), rule({}, "after")];
    const compiled = compileRules(rules);
    expect(firstMatch(compiled, call({}), new Date(ends.getTime() - 1))?.id).toBe("trusted");
    expect(firstMatch(compiled, call({}), ends)?.id).toBe("after");
    expect(firstMatch(compiled, call({}), new Date(ends.getTime() + 60_000))?.id).toBe("after");
    expect(ruleMatches(compiled[0]!, call({}), NOW)).toBe(true);
    expect(ruleMatches(compiled[0]!, call({}), ends)).toBe(false);
    expect([isLive(rules[0]!, NOW), isLive(rules[0]!, ends), isLive(rules[1]!, new Date(8.64e15))]).toEqual([true, false, true]);
  });

  it("runs a catastrophic pattern on a 10,000-character argument in bounded time", () => {
    const compiled = compileRules([rule({ conditions: [{ path: "note", op: "matches", value: "(a+)+$" }] })]);
    const started = performance.now();
    expect(firstMatch(compiled, call({ note: `${"a".repeat(10_000)}!` }), NOW)).toBeNull();
    expect(firstMatch(compiled, call({ note: "a".repeat(10_000) }), NOW)?.id).toBe("r");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses bad paths, patterns the engine cannot run, and inconsistent effects, naming what is wrong", () => {
    const refused = (input: object) => {
      const result = ruleInputSchema.safeParse({ name: "x", effect: "approve", ...input });
      expect(result.success).toBe(false);
      return result.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    };
    expect(refused({ conditions: [{ path: "items[x]", op: "exists" }] })).toMatch(/conditions\.0\.path: .*not a path/);
    expect(refused({ conditions: [{ path: "a..b", op: "exists" }] })).toMatch(/not a path/);
    expect(refused({ conditions: [{ path: "note", op: "matches", value: "(a)\\1" }] })).toMatch(/linear-time engine/);
    expect(refused({ conditions: [{ path: "note", op: "matches", value: "(?=a)" }] })).toMatch(/linear-time engine/);
    expect(refused({ conditions: [{ path: "note", op: "matches", value: "(" }] })).toMatch(/conditions\.0\.value/);
    expect(refused({ conditions: [{ path: "n", op: "<", value: true }] })).toMatch(/number or a string/);
    expect(refused({ conditions: [{ path: "n", op: "in", value: [] }] })).toMatch(/list/);
    expect(refused({ effect: "decline" })).toMatch(/reason/);
    expect(refused({ effect: "require_approvals", approvals: 4 })).toMatch(/approvals/);
    expect(refused({ effect: "require_approvals" })).toMatch(/2 or 3/);
    expect(refused({ risk: "extreme" })).toMatch(/risk/);
    expect(
      ruleInputSchema.safeParse({
        name: "ok",
        effect: "decline",
        reason: "no",
        conditions: [{ path: "items[0].sku", op: "matches", value: "^A-" }],
      }).success,
    ).toBe(true);
  });
});
