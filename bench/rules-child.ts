/**
 * Child of bench/run.ts: what rules cost on one store.
 * - Evaluation: 100 enabled rules, none of which matches a backlog call (so every call is checked
 *   against all 100: the worst case), compiled once as lib/rules/auto-decide.ts does per claim, then
 *   `firstMatch` timed per call over calls read from the backlog.
 * - Dry run: `dryRunRule` over every waiting call of the backlog (the scan /admin/rules runs when an
 *   admin saves a rule), first page of 50 matches.
 * Answers with one JSON line: for each store's URL, { evaluation, compileMs, rules, calls, dryRun, waiting, matched }.
 * Usage: tsx bench/rules-child.ts <database url>… [--quick]
 */
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { compileRules, firstMatch } from "../lib/rules/match.ts";
import { ruleInputSchema, type RuleDefinition } from "../lib/rules/validations.ts";
import { dryRunRule, waitingCalls, type WaitingRuleCall } from "../lib/rules/waiting-calls.ts";
import { eachStore, storeArgs } from "./children.ts";
import { measure, stats } from "./timing.ts";

const { urls, quick } = storeArgs("rules-child.ts");

/** A hundred rules of every kind an admin writes, each missing the backlog's calls by one field or condition. */
function hundredRules(): RuleDefinition[] {
  const shapes = [
    (i: number) => ({ agentId: "refunds", toolName: "issueRefund", conditions: [{ path: "amount", op: ">", value: 100_000 + i }] }),
    (i: number) => ({ resource: `vip-${i}-`, resourceMatch: "prefix", conditions: [{ path: "orderId", op: "exists" }] }),
    (i: number) => ({ toolName: "issueRefund", conditions: [{ path: "orderId", op: "matches", value: `^ORD-9${i}[0-9]{6}$` }] }),
    (i: number) => ({ agentId: "shipping", conditions: [{ path: "address.country", op: "in", value: [`X${i}`, `Y${i}`, `Z${i}`] }] }),
    (i: number) => ({ callKind: "approval", conditions: [{ path: `items[${i}].sku`, op: "equals", value: `SKU-${i}` }] }),
    (i: number) => ({
      agentId: "refunds",
      conditions: [
        { path: "currency", op: "in", value: ["EUR", "USD", "GBP"] },
        { path: "amount", op: "<", value: -i },
      ],
    }),
    (i: number) => ({ resource: `cust_zz${i}`, conditions: [] }),
    (i: number) => ({ toolName: `tool${i}`, conditions: [{ path: "note", op: "matches", value: "(urgent|asap)+\\b" }] }),
  ];
  return Array.from({ length: 100 }, (_, i) => {
    const input = ruleInputSchema.parse({
      name: `rule ${i}`,
      enabled: true,
      effect: "approve",
      risk: "low",
      ...shapes[i % shapes.length]!(i),
    });
    return { ...input, id: `bench-${i}`, position: i, version: 1, expiresAt: null, trustedBy: null } as RuleDefinition;
  });
}

console.log(JSON.stringify(await eachStore(urls, measureRules)));
process.exit(0);

async function measureRules(url: string) {
  const db = await getDb(url);
  const rules = hundredRules();
  const compileStarted = performance.now();
  const compiled = compileRules(rules);
  const compileMs = performance.now() - compileStarted;

  // Calls from across the backlog: every agent, tool and shape it holds.
  const calls: WaitingRuleCall[] = [];
  for await (const call of waitingCalls(db, null)) {
    calls.push(call);
    if (calls.length === (quick ? 1_000 : 5_000)) break;
  }
  const perCall: number[] = [];
  const now = new Date();
  let matchedByHundred = 0;
  for (let round = 0; round < 3; round++) {
    for (const call of calls) {
      const started = performance.now();
      const rule = firstMatch(compiled, call, now);
      const ms = performance.now() - started;
      if (round > 0) perCall.push(ms); // the first round warms the JIT
      if (rule) matchedByHundred++;
    }
  }

  const dryRunRuleInput = ruleInputSchema.parse({
    name: "small refunds",
    enabled: false,
    agentId: "refunds",
    toolName: "issueRefund",
    conditions: [{ path: "amount", op: "<=", value: 50 }],
    effect: "approve",
    risk: "low",
  });
  const { stats: dryRun, last } = await measure(() => dryRunRule(db, dryRunRuleInput, { page: 1, pageSize: 50 }), {
    warmup: 1,
    minSamples: quick ? 3 : 5,
    maxSamples: quick ? 3 : 5,
    budgetMs: 0,
  });

  await disconnectDb(url);
  return {
    evaluation: stats(perCall),
    compileMs,
    rules: rules.length,
    calls: calls.length,
    matchedByHundred,
    dryRun,
    waiting: last.waiting,
    matched: last.matched,
  };
}
