/**
 * Rules replayed over the past and the rules suggested from it, on SQLite and PostgreSQL, over
 * decisions made through the product's own code (tests/helpers/decided-history.ts): the demo refunds
 * agent waits, the events loop claims the call, a person (or a rule) decides. Every number is
 * checked against a replay counted by hand from the rows the product wrote (replay-by-hand.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { backtestRule } from "../../lib/rules/backtest.ts";
import type { ProposedRule, RuleProposal } from "../../lib/rules/dto.ts";
import { proposeRules, type ProposalOptions } from "../../lib/rules/proposals.ts";
import { createRule, deleteRule } from "../../lib/rules/store.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { decideRefunds, type PastRefund } from "../helpers/decided-history.ts";
import { decisionsByHand, replayByHand } from "../helpers/replay-by-hand.ts";

const HOSTILE = `<img src=x onerror="alert(1)"> looks like fraud; '); DROP TABLE rules; --`;
const approve = (reviewer: string) => ({ action: "approve", reviewer }) as const;

/** acme:eu: customers: eight refunds people approved, one (30.00) Mallory declined; globex/ customers: six declined. */
const HISTORY: PastRefund[] = [
  ...[12, 18, 25, 33, 41, 47, 55, 64].map((amount, index) => ({
    resource: `acme:eu:${index}`,
    amount,
    decision: approve(index % 2 ? "bob@test.example" : "rita@test.example"),
  })),
  { resource: "acme:eu:9", amount: 30, decision: { action: "decline", reviewer: "mallory@test.example", reason: HOSTILE } },
  ...[900, 950, 1200, 1500, 2000, 990].map((amount, index) => ({
    resource: `globex/${index}`,
    amount,
    decision: { action: "decline", reviewer: "rita@test.example", reason: "over the desk's limit" } as const,
  })),
];

const options = (fields: Partial<ProposalOptions> = {}): ProposalOptions => ({
  days: 30,
  minCalls: 5,
  maxWrongShare: 0,
  agentId: null,
  toolName: null,
  resourcePrefix: null,
  page: 1,
  pageSize: 50,
  ...fields,
});

const ruleOf = (fields: object): ProposedRule => {
  const { position: _position, ...rule } = ruleInputSchema.parse({ name: "r", effect: "approve", ...fields });
  return rule;
};

describe.each(["sqlite", "postgres"] as const)("backtests and suggested rules on %s", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  beforeAll(async () => {
    await decideRefunds(database.url, HISTORY);
    // A rule decides one acme refund on its own: reported apart from what people decided.
    const db = await getDb(database.url);
    const tiny = await createRule(
      db,
      ruleInputSchema.parse({
        name: "tiny",
        enabled: true,
        resource: "acme:eu:99",
        effect: "approve",
        conditions: [{ path: "amount", op: "<=", value: 5 }],
      }),
      "admin@test.example",
    );
    await decideRefunds(database.url, [{ resource: "acme:eu:99", amount: 3, decision: { action: "wait" } }]);
    await deleteRule(db, tiny.id, "admin@test.example");
    expect(await db.toolCallDecision.count({ where: { ruleId: tiny.id, state: "applied" } })).toBe(1);
  }, 300_000);

  /** The proposal's numbers against the replay by hand of its rule over the same decisions. */
  async function expectReplayedByHand(proposal: RuleProposal, now: Date) {
    const byHand = replayByHand(proposal.rule, await decisionsByHand(database.url), 30, now);
    const { backtest } = proposal;
    expect(backtest.matched).toBe(byHand.matched);
    expect(backtest.wouldDecide[proposal.rule.effect]).toBe(byHand.matched);
    expect({ agreed: backtest.agreed, disagreed: backtest.disagreed }).toEqual({ agreed: byHand.agreed, disagreed: byHand.disagreed });
    expect({ saved: backtest.waitSavedMs, unknown: backtest.waitsUnknown }).toEqual({
      saved: byHand.waitSavedMs,
      unknown: byHand.waitsUnknown,
    });
    expect(backtest.others.rule.matched).toBe(byHand.byRules);
    expect(
      backtest.disagreements.map(({ runId, toolCallId, reviewer, reason, decided }) => ({ runId, toolCallId, reviewer, reason, decided })),
    ).toEqual(byHand.disagreements);
  }

  it("backtests a rule as a replay by hand counts it: matches, disagreements with who and why, waits, rules' decisions apart", async () => {
    const db = await getDb(database.url);
    const now = new Date();
    const rule = ruleOf({
      agentId: "refunds",
      toolName: "issueRefund",
      resource: "acme:eu:",
      resourceMatch: "prefix",
      conditions: [{ path: "amount", op: "<=", value: 40 }],
    });
    const result = await backtestRule(db, rule, { days: 30, now, pageSize: 1 });
    const byHand = replayByHand(rule, await decisionsByHand(database.url), 30, now);
    // 12, 18, 25 and 33 approved, 30 declined; the rule's own 3.00 apart.
    expect(byHand).toMatchObject({ matched: 5, agreed: 4, disagreed: 1, byRules: 1, waitsUnknown: 0 });
    expect(result).toMatchObject({ matched: 5, agreed: 4, disagreed: 1, waitsUnknown: 0, waitSavedMs: byHand.waitSavedMs });
    expect(result.wouldDecide).toEqual({ approve: 5, decline: 0, require_approvals: 0, ask: 0 });
    expect(result.others).toEqual({ rule: { matched: 1, disagreed: 0 }, suggestion: { matched: 0, disagreed: 0 }, expiry: { matched: 0 } });
    expect(result.waitSavedMs).toBeGreaterThan(0);
    expect(result.disagreements).toEqual([
      expect.objectContaining({
        decided: "decline",
        decidedBy: "person",
        reviewer: "mallory@test.example",
        reason: HOSTILE,
        wouldDo: "approve",
        toolName: "issueRefund",
      }),
    ]);
    expect(JSON.parse(result.disagreements[0]!.args)).toMatchObject({ amount: 30, currency: "EUR" });
    // Counting the rules' decisions too: the rule's own approval agrees with it.
    expect(await backtestRule(db, rule, { days: 30, now, include: "all" })).toMatchObject({
      matched: 6,
      agreed: 5,
      disagreed: 1,
      others: { rule: { matched: 0 } },
    });
    // A period that ends before any of it, and a rule of another agent: nothing.
    expect(await backtestRule(db, rule, { days: 1, now: new Date(now.getTime() - 2 * 86_400_000) })).toMatchObject({
      matched: 0,
      disagreements: [],
    });
    expect(await backtestRule(db, { ...rule, agentId: "shipping" }, { days: 30, now })).toMatchObject({ matched: 0 });
    // A reviewer's trusted rule that ended before any of these calls waited matches none of them; one that ends later, all five.
    expect(
      await backtestRule(db, { ...rule, expiresAt: new Date(now.getTime() - 2 * 86_400_000).toISOString() }, { days: 30, now }),
    ).toMatchObject({ matched: 0 });
    expect(
      await backtestRule(db, { ...rule, expiresAt: new Date(now.getTime() + 3_600_000).toISOString() }, { days: 30, now }),
    ).toMatchObject({ matched: 5 });
    // A prefix holding LIKE's own characters is taken as written.
    expect(await backtestRule(db, { ...rule, resource: "acme%" }, { days: 30, now })).toMatchObject({ matched: 0 });
  });

  it("suggests declining what people always declined; a group with one decline is not suggested at 0, and is at a share allowing it", async () => {
    const db = await getDb(database.url);
    const now = new Date();
    const strict = await proposeRules(db, options({ now }));
    expect(strict.considered).toBe(HISTORY.length);
    expect(strict.proposals.filter((proposal) => proposal.rule.effect === "approve")).toEqual([]);
    const declines = strict.proposals.filter((proposal) => proposal.rule.effect === "decline");
    expect(declines).toHaveLength(1);
    expect(declines[0]!.rule).toMatchObject({
      agentId: "refunds",
      toolName: "issueRefund",
      resource: "globex/",
      resourceMatch: "prefix",
      enabled: false,
    });
    expect(declines[0]!.backtest).toMatchObject({ matched: 6, disagreed: 0, waitsUnknown: 0 });
    for (const proposal of strict.proposals) await expectReplayedByHand(proposal, now);

    // One in nine declined: offered once the share allows it, with the decline listed.
    const lenient = await proposeRules(db, options({ now, maxWrongShare: 0.2 }));
    const approving = lenient.proposals.filter((proposal) => proposal.rule.effect === "approve");
    expect(approving).toHaveLength(1);
    expect(approving[0]!.rule.conditions).toContainEqual({ path: "amount", op: "<=", value: 64 });
    expect(approving[0]!.backtest).toMatchObject({ matched: 9, agreed: 8, disagreed: 1 });
    expect(approving[0]!.backtest.disagreements).toEqual([expect.objectContaining({ reviewer: "mallory@test.example", reason: HOSTILE })]);
    for (const proposal of lenient.proposals) await expectReplayedByHand(proposal, now);
    // Not enough calls: nothing.
    expect((await proposeRules(db, options({ now, maxWrongShare: 1, minCalls: HISTORY.length + 1 }))).proposals).toEqual([]);
  });

  it("never suggests approving calls a rule rates high or critical", async () => {
    const db = await getDb(database.url);
    const rated = await createRule(
      db,
      ruleInputSchema.parse({ name: "refunds are critical", toolName: "issueRefund", effect: "ask", risk: "critical" }),
      "admin@test.example",
    );
    // Elsewhere: a high rule for other customers leaves acme alone.
    const elsewhere = await createRule(
      db,
      ruleInputSchema.parse({ name: "initech", resource: "initech:", resourceMatch: "prefix", effect: "ask", risk: "high" }),
      "admin@test.example",
    );
    try {
      const result = await proposeRules(db, options({ maxWrongShare: 0.2 }));
      expect(result.proposals.filter((proposal) => proposal.rule.effect === "approve")).toEqual([]);
      expect(result.proposals.filter((proposal) => proposal.rule.effect === "decline")).not.toEqual([]);
      expect(result.ratedHigh).toEqual([{ agentId: "refunds", toolName: "issueRefund" }]);
      await deleteRule(db, rated.id, "admin@test.example");
      const scoped = await proposeRules(db, options({ maxWrongShare: 0.2, resourcePrefix: "acme:" }));
      expect(scoped.proposals.map((proposal) => [proposal.rule.effect, proposal.rule.resource])).toEqual([["approve", "acme:"]]);
      expect(scoped.ratedHigh).toEqual([]);
    } finally {
      await deleteRule(db, elsewhere.id, "admin@test.example");
      if (await db.rule.findUnique({ where: { id: rated.id } })) await deleteRule(db, rated.id, "admin@test.example");
    }
  });
});
