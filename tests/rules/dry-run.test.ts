/**
 * The calls a rule sees when it looks at what is waiting now (a dry run, "apply to waiting calls"),
 * on SQLite and PostgreSQL with the real demo agents: read a few runs at a time, every waiting call
 * is seen exactly once, the same as the console's own listing of suspended runs has them; a dry run
 * counts and pages its matches as a brute-force pass over that listing does.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { compileRules, ruleMatches, type RuleCall } from "../../lib/rules/match.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { dryRunRule, waitingCalls, type WaitingRuleCall } from "../../lib/rules/waiting-calls.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("waiting calls as rules see them on %s", { timeout: 240_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  /** Every waiting call with its arguments, from the contract's listing (all pages). */
  let listed: WaitingRuleCall[] = [];

  /** Every waiting call with its arguments, from the contract's listing (all pages). */
  async function listWaiting(): Promise<WaitingRuleCall[]> {
    const calls: WaitingRuleCall[] = [];
    for (let page = 0; ; page++) {
      const { runs, total } = await listSuspendedRuns({ perPage: 3, page }, database.url);
      for (const run of runs)
        for (const call of run.toolCalls)
          if (call.toolCallId)
            calls.push({
              runId: run.runId,
              toolCallId: call.toolCallId,
              agentId: run.agentId,
              toolName: call.toolName ?? null,
              resourceId: run.resourceId ?? null,
              kind: call.requiresApproval ? "approval" : "input",
              args: call.args,
            });
      if ((page + 1) * 3 >= total) return calls;
    }
  }

  beforeAll(async () => {
    for (const [order, amount] of [
      ["ORD-7001", "20.00 EUR"],
      ["ORD-7002", "80.00 EUR"],
      ["ORD-8001", "20.00 EUR"],
      ["ORD-7003", "45.00 EUR"],
    ])
      await suspendDemoRun(database.url, "refunds", refundRequest(order, amount));
    await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-77"));
    await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7004", "10.00 EUR"), "none");
    await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7005", "30.00 EUR"), "resource-only");
    listed = await listWaiting();
  }, 240_000);

  const key = (call: { runId: string; toolCallId: string }) => `${call.runId}/${call.toolCallId}`;
  const read = async (agentId: string | null, pageSize: number) => {
    const calls: WaitingRuleCall[] = [];
    for await (const call of waitingCalls(await getDb(database.url), agentId, { pageSize })) calls.push(call);
    return calls;
  };

  it("sees every waiting call exactly once, whatever the page size, with the listing's fields", async () => {
    expect(listed.length).toBeGreaterThanOrEqual(7);
    const expected = new Map(listed.map((call) => [key(call), call]));
    for (const pageSize of [1, 2, 3, 5_000]) {
      const calls = await read(null, pageSize);
      expect(calls.length, `page size ${pageSize}`).toBe(listed.length);
      expect(calls.map(key).sort(), `page size ${pageSize}`).toEqual([...expected.keys()].sort());
      for (const call of calls) {
        const { runId, toolCallId, agentId, toolName, resourceId, kind, args } = call;
        expect({ runId, toolCallId, agentId, toolName, resourceId, kind, args }).toEqual(expected.get(key(call)));
      }
    }
  });

  it("narrows to one agent in SQL and still pages through all of its calls", async () => {
    for (const agentId of ["refunds", "shipping", "nobody"]) {
      const expected = listed
        .filter((call) => call.agentId === agentId)
        .map(key)
        .sort();
      expect((await read(agentId, 2)).map(key).sort(), agentId).toEqual(expected);
    }
  });

  it("counts and pages a dry run as a brute-force pass over the listing does", async () => {
    const db = await getDb(database.url);
    const rule = ruleInputSchema.parse({
      name: "small refunds",
      enabled: false,
      agentId: "refunds",
      toolName: "issueRefund",
      conditions: [{ path: "amount", op: "<=", value: 50 }],
      effect: "approve",
      risk: "low",
    });
    const [compiled] = compileRules([{ ...rule, enabled: true }]);
    const matching = listed.filter((call: RuleCall) => ruleMatches(compiled!, call, new Date()));
    expect(matching.length).toBeGreaterThanOrEqual(2);
    const first = await dryRunRule(db, rule, { page: 1, pageSize: 1 });
    const second = await dryRunRule(db, rule, { page: 2, pageSize: 1 });
    expect(first.waiting).toBe(listed.length);
    expect(first.matched).toBe(matching.length);
    expect(first.counts.approve).toBe(matching.length);
    const shown = [...first.calls, ...second.calls].map(key);
    expect(new Set(shown).size).toBe(2);
    for (const call of shown) expect(matching.map(key)).toContain(call);
  });

  it("stays exact as calls are decided one of several, runs leave the queue and rows are deleted", async () => {
    const db = await getDb(database.url);
    const mastraText = requests.severalRefunds().text;
    const several = await suspendDemoRun(database.url, "refunds", mastraText);
    const same = (calls: WaitingRuleCall[]) => calls.map(key).sort();
    expect(same(await read(null, 2))).toEqual(same(await listWaiting()));
    // One of the run's parallel calls decided: the run waits again on the other one.
    await decide({ action: "approve", ...several.ref }, { reviewer: "rita@test.example", databaseUrl: database.url });
    const afterOne = await listWaiting();
    expect(afterOne.some((call) => call.runId === several.runId && call.toolCallId !== several.ref.toolCallId)).toBe(true);
    expect(same(await read(null, 2))).toEqual(same(afterOne));
    // A whole run decided: it leaves the queue.
    const single = listed.find((call) => call.kind === "approval" && call.runId !== several.runId)!;
    await decide(
      { action: "decline", reason: "no", runId: single.runId, toolCallId: single.toolCallId },
      {
        reviewer: "rita@test.example",
        databaseUrl: database.url,
      },
    );
    expect(same(await read(null, 2))).toEqual(same(await listWaiting()));
    // A waiting run's row deleted (Mastra deletes a run's snapshot when it is cleaned up).
    const gone = (await listWaiting()).find((call) => call.runId !== several.runId)!;
    await db.workflowSnapshot.deleteMany({ where: { runId: gone.runId } });
    expect((await read(null, 2)).some((call) => call.runId === gone.runId)).toBe(false);
    expect(same(await read(null, 2))).toEqual(same(await listWaiting()));
  });
});
