/**
 * Rules deciding for people, on SQLite and PostgreSQL, with the real demo agents: a matching rule
 * approves a newly waiting call through the agent (the tool runs once), recorded as decided by
 * "rule '<name>' (version N)"; a call no rule matches waits for a person; two console processes and
 * a reviewer racing give one outcome; editing or deleting the rule afterwards changes nothing decided.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { decideRuleMatches, prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { createRule, deleteRule, listRuleVersions, updateRule } from "../../lib/rules/store.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { runConsoleProcess } from "../helpers/console-process.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("rules deciding on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  // One database per file: each test starts with no rules.
  beforeEach(async () => void (await (await getDb(database.url)).rule.deleteMany()));

  const smallRefunds = (fields: object = {}) =>
    ruleInputSchema.parse({
      name: "small refunds",
      enabled: true,
      agentId: "refunds",
      toolName: "issueRefund",
      conditions: [
        { path: "amount", op: "<=", value: 50 },
        { path: "orderId", op: "matches", value: "^ORD-7" },
      ],
      effect: "approve",
      risk: "low",
      ...fields,
    });

  async function stateOf(runId: string, toolCallId: string) {
    const db = await getDb(database.url);
    const key = { runId_toolCallId: { runId, toolCallId } };
    return {
      decision: await db.toolCallDecision.findUnique({ where: key }),
      match: await db.callRuleMatch.findUnique({ where: key }),
      effects: await db.toolEffect.count({ where: { toolCallId } }),
      snapshots: await db.workflowSnapshot.count({ where: { runId } }),
    };
  }
  const onePass = async () => {
    await recordWaitingCalls(database.url, prepareRuleMatches);
    return decideRuleMatches(database.url);
  };

  it("approves a matching call through the agent once, as the rule's version; leaves the others to people", async () => {
    const db = await getDb(database.url);
    const rule = await createRule(db, smallRefunds(), "admin@test.example");
    const matching = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7001", "20.00 EUR"));
    const tooLarge = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7002", "80.00 EUR"));
    const otherOrder = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-8001", "20.00 EUR"));
    expect(await onePass()).toBe(1);

    const approved = await stateOf(matching.runId, matching.ref.toolCallId);
    expect(approved.decision).toMatchObject({
      action: "approve",
      state: "applied",
      reviewer: "rule 'small refunds' (version 1)",
      ruleId: rule.id,
      ruleVersion: 1,
    });
    expect(approved.match).toMatchObject({ ruleId: rule.id, ruleVersion: 1, effect: "approve" });
    expect(approved.match?.settledAt).not.toBeNull();
    expect(approved.effects).toBe(1);
    expect(approved.snapshots).toBe(0);
    for (const run of [tooLarge, otherOrder]) {
      const waiting = await stateOf(run.runId, run.ref.toolCallId);
      expect(waiting).toMatchObject({ decision: null, effects: 0 });
      expect(waiting.snapshots).toBeGreaterThan(0); // still waiting
      expect(waiting.match).toMatchObject({ ruleId: null, effect: null }); // evaluated, nothing matched
    }
    const history = await db.auditEvent.findMany({ where: { runId: matching.runId }, orderBy: { id: "asc" } });
    expect(history.map((row) => [row.outcome, row.reviewer])).toEqual([
      ["recorded", "rule 'small refunds' (version 1)"],
      ["applied", "rule 'small refunds' (version 1)"],
    ]);
    const decided = (await db.outboxEvent.findMany({ where: { type: "call.decided" } }))
      .map((event) => JSON.parse(event.payload) as { data: Record<string, unknown> })
      .filter((event) => event.data.toolCallId === matching.ref.toolCallId);
    expect(decided.map((event) => event.data)).toEqual([
      expect.objectContaining({ decidedBy: "rule", ruleId: rule.id, ruleVersion: 1, action: "approve", state: "applied" }),
    ]);

    // Never evaluated twice: later passes decide nothing, even after the rule would match them.
    await updateRule(db, rule.id, smallRefunds({ conditions: [] }), "admin@test.example");
    expect(await onePass()).toBe(0);
    expect(await stateOf(tooLarge.runId, tooLarge.ref.toolCallId)).toMatchObject({ decision: null, effects: 0 });
    expect((await stateOf(matching.runId, matching.ref.toolCallId)).effects).toBe(1);
    // A reviewer is told the rule decided.
    await expect(
      decide({ action: "decline", reason: "no", ...matching.ref }, { reviewer: "rita@test.example", databaseUrl: database.url }),
    ).rejects.toMatchObject({
      code: "already_decided",
    });
  });

  it("declines with the rule's reason, and editing or deleting the rule afterwards changes nothing decided", async () => {
    const db = await getDb(database.url);
    const rule = await createRule(
      db,
      smallRefunds({ name: "no 7s", effect: "decline", reason: "orders starting with 7 go to finance" }),
      "admin@test.example",
    );
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7100", "10.00 EUR"));
    expect(await onePass()).toBe(1);
    const before = await stateOf(run.runId, run.ref.toolCallId);
    expect(before.decision).toMatchObject({
      action: "decline",
      reason: "orders starting with 7 go to finance",
      reviewer: "rule 'no 7s' (version 1)",
      ruleVersion: 1,
    });
    expect(before.effects).toBe(0);

    await updateRule(db, rule.id, smallRefunds({ name: "renamed", effect: "approve" }), "other-admin@test.example");
    await deleteRule(db, rule.id, "other-admin@test.example");
    expect(await onePass()).toBe(0);
    const after = await stateOf(run.runId, run.ref.toolCallId);
    expect(after.decision).toEqual(before.decision);
    expect(after.match).toMatchObject({ ruleId: rule.id, ruleVersion: 1, effect: "decline" });
    expect(
      (await listRuleVersions(db, rule.id)).map((version) => [version.version, version.change, version.changedBy, version.rule.name]),
    ).toEqual([
      [3, "deleted", "other-admin@test.example", "renamed"],
      [2, "updated", "other-admin@test.example", "renamed"],
      [1, "created", "admin@test.example", "no 7s"],
    ]);
  });

  it("two console processes and a reviewer racing one rule decision: one outcome, the tool runs once", async () => {
    const db = await getDb(database.url);
    await createRule(db, smallRefunds({ name: "race" }), "admin@test.example");
    const runs = [];
    for (const order of ["ORD-7201", "ORD-7202", "ORD-7203"])
      runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(order, "5.00 EUR")));
    const racers = await Promise.all([
      runConsoleProcess([database.url, "rules"]),
      runConsoleProcess([database.url, "rules"]),
      ...runs.map((run) => runConsoleProcess([database.url, "decline", run.runId, run.ref.toolCallId, "a person said no"])),
    ]);
    for (const racer of racers.slice(0, 2)) expect(racer.code, racer.stderr).toBe(0);
    const claimed = racers.slice(0, 2).map((racer) => (JSON.parse(racer.stdout.trim().split("\n").at(-1)!) as { claimed: number }).claimed);
    expect(claimed[0]! + claimed[1]!).toBe(3); // each call claimed by exactly one process
    let ruleWon = 0;
    for (const [index, run] of runs.entries()) {
      const state = await stateOf(run.runId, run.ref.toolCallId);
      expect(state.snapshots).toBe(0);
      const reviewer = racers[2 + index]!;
      if (state.decision?.reviewer === "crash-tester") {
        expect(state.decision).toMatchObject({ action: "decline", state: "applied", ruleId: null });
        expect(state.effects).toBe(0);
        expect(reviewer.code).toBe(0);
      } else {
        ruleWon++;
        expect(state.decision).toMatchObject({ action: "approve", state: "applied", reviewer: "rule 'race' (version 1)" });
        expect(state.effects).toBe(1);
        // The reviewer was told the rule did (or found the run gone).
        expect(reviewer.stderr).toMatch(/rule 'race' \(version 1\) already approved|run_not_found|tool_call_not_pending|already_decided/);
      }
      expect(await db.toolCallDecision.count({ where: { runId: run.runId } })).toBe(1);
    }
    // Whatever the interleaving, nothing is left for a later pass to decide.
    expect(await onePass()).toBe(0);
    expect(ruleWon).toBeGreaterThanOrEqual(0);
  });
});
