/**
 * Two approvers (issue 25, item 4), on SQLite and PostgreSQL, with the real demo agent: a call a
 * "Require 2 approvals" rule matched waits after one approval ("1 of 2 approvals (Rita)"); the same
 * person approving twice is refused and changes nothing; a second person's approval runs the tool
 * once; a decline after one approval ends it; three reviewers racing (in one process, and in three
 * console processes) give exactly two approvals and one tool run; bulk approve counts one per call.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveReviewSetting } from "../../lib/actions/save-review-setting.ts";
import { assignCall } from "../../lib/assignments/assignments.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { decideBatch } from "../../lib/decisions/bulk.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { expireOverdueCalls } from "../../lib/decisions/expire.ts";
import { findCallDecisionStates } from "../../lib/decisions/call-states.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { decideRuleMatches, prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { createRule } from "../../lib/rules/store.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { minutesFromNow, replaceExpiryRules } from "../helpers/expiry-rules.ts";
import { runConsoleProcess } from "../helpers/console-process.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("two approvers on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let rita: TestAccount, bob: TestAccount, carl: TestAccount;
  beforeAll(async () => {
    const suffix = randomUUID().slice(0, 6);
    const accounts = await Promise.all(
      ["Rita", "Bob", "Carl"].map((name) => createTestAccount(database.url, "reviewer", `${name}-${suffix}`)),
    );
    [rita, bob, carl] = [accounts[0]!, accounts[1]!, accounts[2]!];
  });
  beforeEach(async () => void (await (await getDb(database.url)).rule.deleteMany()));

  const fourEyes = (approvals = 2) =>
    ruleInputSchema.parse({
      name: "four eyes",
      enabled: true,
      agentId: "refunds",
      toolName: "issueRefund",
      conditions: [{ path: "amount", op: ">", value: 100 }],
      effect: "require_approvals",
      approvals,
      risk: "high",
    });

  /** Runs waiting on a large refund, each matched by the rule as it started waiting. */
  async function waitingCalls(count: number, approvals = 2) {
    const db = await getDb(database.url);
    await createRule(db, fourEyes(approvals), "admin@test.example");
    const runs = [];
    for (let index = 0; index < count; index++) {
      runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(`ORD-${randomUUID().slice(0, 6)}`, "500.00 EUR")));
    }
    await recordWaitingCalls(database.url, prepareRuleMatches);
    expect(await decideRuleMatches(database.url)).toBe(0); // a rule never approves such a call itself
    for (const run of runs) {
      expect(await db.callRuleMatch.findUnique({ where: { runId_toolCallId: run.ref } })).toMatchObject({ effect: "require_approvals" });
    }
    return runs;
  }

  async function stateOf(ref: { runId: string; toolCallId: string }) {
    const db = await getDb(database.url);
    return {
      decision: await db.toolCallDecision.findUnique({ where: { runId_toolCallId: ref } }),
      approvals: (await db.callApproval.findMany({ where: ref, orderBy: { approvedAt: "asc" } })).map((row) => row.reviewerName),
      effects: await db.toolEffect.count({ where: { toolCallId: ref.toolCallId } }),
      snapshots: await db.workflowSnapshot.count({ where: { runId: ref.runId } }),
    };
  }
  const approve = (ref: { runId: string; toolCallId: string }, who: TestAccount) =>
    decide({ action: "approve", ...ref }, { reviewer: who.email, databaseUrl: database.url, via: "console" });

  it("one approval leaves it waiting with 1 of 2; the same person again is refused; a second person runs the tool once", async () => {
    const [run] = await waitingCalls(1);
    const ref = run!.ref;
    const first = await approve(ref, rita);
    expect(first).toMatchObject({ runState: "awaiting-approvals", approvals: { required: 2, approvals: [{ reviewer: rita.name }] } });
    expect(await stateOf(ref)).toMatchObject({ decision: null, approvals: [rita.name], effects: 0 });
    expect((await stateOf(ref)).snapshots).toBeGreaterThan(0);
    // The queue and the run page read it with the call's decision state.
    const shown = (await findCallDecisionStates([ref.runId], database.url)).get(ref.runId)?.get(ref.toolCallId);
    expect(shown?.approvals).toMatchObject({ required: 2, approvals: [{ reviewer: rita.name }] });
    expect(shown?.inFlight).toBeUndefined();

    // Rita again: refused, nothing changed.
    await expect(approve(ref, rita)).rejects.toMatchObject({ code: "already_approved_by_you" });
    expect(await stateOf(ref)).toMatchObject({ decision: null, approvals: [rita.name], effects: 0 });

    const second = await approve(ref, bob);
    expect(second).toMatchObject({ action: "approve", runState: "completed", approvals: { required: 2 } });
    expect(second.approvals?.approvals.map((approval) => approval.reviewer)).toEqual([rita.name, bob.name]);
    const done = await stateOf(ref);
    expect(done).toMatchObject({ approvals: [rita.name, bob.name], effects: 1, snapshots: 0 });
    expect(done.decision).toMatchObject({ action: "approve", state: "applied", reviewer: bob.email });
    // Too late for Carl: decided.
    await expect(approve(ref, carl)).rejects.toMatchObject({ code: "already_decided" });
    expect((await stateOf(ref)).approvals).toEqual([rita.name, bob.name]);

    const history = await (await getDb(database.url)).auditEvent.findMany({ where: { runId: ref.runId }, orderBy: { id: "asc" } });
    expect(history.map((row) => [row.outcome, row.reviewer, row.code])).toEqual([
      ["approved", rita.email, null],
      ["refused", rita.email, "already_approved_by_you"],
      ["approved", bob.email, null],
      ["recorded", bob.email, null],
      ["applied", bob.email, null],
      ["conflict", carl.email, "already_decided"],
    ]);
    expect(history[0]!.message).toContain(`1 of 2 approvals (${rita.name})`);
  });

  it("a decline after one approval ends it: declined as usual, the tool never runs", async () => {
    const [run] = await waitingCalls(1);
    await approve(run!.ref, rita);
    await decide({ action: "decline", reason: "not this one", ...run!.ref }, { reviewer: bob.email, databaseUrl: database.url });
    const state = await stateOf(run!.ref);
    expect(state.decision).toMatchObject({ action: "decline", state: "applied", reviewer: bob.email });
    expect(state).toMatchObject({ approvals: [rita.name], effects: 0, snapshots: 0 });
    await expect(approve(run!.ref, carl)).rejects.toMatchObject({ code: "already_decided" });
  });

  it("three reviewers approving at once: exactly two approvals count, the tool runs once", async () => {
    const [run] = await waitingCalls(1);
    const settled = await Promise.allSettled([rita, bob, carl].map((who) => approve(run!.ref, who)));
    const state = await stateOf(run!.ref);
    expect(state.approvals).toHaveLength(2);
    expect(state).toMatchObject({ effects: 1, snapshots: 0 });
    expect(state.decision).toMatchObject({ action: "approve", state: "applied" });
    const fulfilled = settled.filter((result) => result.status === "fulfilled").map((result) => result.value.runState);
    expect(fulfilled.sort()).toEqual(["awaiting-approvals", "completed"]);
    const rejected = settled.filter((result) => result.status === "rejected");
    expect(rejected.map((result) => (result.reason as { code: string }).code)).toEqual(["already_decided"]);
  });

  it("the second approval and a decline at once: one of them decides, the other is told, never an error", async () => {
    const runs = await waitingCalls(3);
    for (const run of runs) {
      await approve(run.ref, rita);
      const [approval, decline] = await Promise.allSettled([
        approve(run.ref, bob),
        decide({ action: "decline", reason: "no", ...run.ref }, { reviewer: carl.email, databaseUrl: database.url }),
      ]);
      const state = await stateOf(run.ref);
      const [won, lost] = state.decision?.action === "approve" ? [approval, decline] : [decline, approval];
      expect(won.status, JSON.stringify(lost)).toBe("fulfilled");
      expect(lost).toMatchObject({
        status: "rejected",
        reason: { code: expect.stringMatching(/^already_decided$|^run_not_found$|^tool_call_not_pending$/) },
      });
      expect(state.effects).toBe(state.decision?.action === "approve" ? 1 : 0);
      expect(state.approvals.length).toBe(state.decision?.action === "approve" ? 2 : 1);
    }
  });

  it("three console processes approving at once, as three people: exactly two approvals, one tool run", async () => {
    const [run] = await waitingCalls(1);
    const racers = await Promise.all(
      [rita, bob, carl].map((who) =>
        runConsoleProcess([database.url, "approve", run!.ref.runId, run!.ref.toolCallId], { APPROVALS_REVIEWER: who.email }),
      ),
    );
    const state = await stateOf(run!.ref);
    expect(state.approvals).toHaveLength(2);
    expect(state).toMatchObject({ effects: 1, snapshots: 0 });
    expect(state.decision).toMatchObject({ action: "approve", state: "applied" });
    const answers = racers.map((racer) =>
      racer.code === 0 ? (JSON.parse(racer.stdout.trim()) as { runState: string }).runState : "refused",
    );
    expect(answers.sort()).toEqual(["awaiting-approvals", "completed", "refused"]);
    expect(racers.find((racer) => racer.code !== 0)!.stderr).toMatch(/already approved this tool call|already_decided/);
  });

  it("with 3 required, the third distinct approval carries it out", async () => {
    const [run] = await waitingCalls(1, 3);
    expect((await approve(run!.ref, rita)).approvals).toMatchObject({ required: 3 });
    expect((await approve(run!.ref, bob)).runState).toBe("awaiting-approvals");
    expect((await stateOf(run!.ref)).effects).toBe(0);
    expect((await approve(run!.ref, carl)).runState).toBe("completed");
    expect(await stateOf(run!.ref)).toMatchObject({ approvals: [rita.name, bob.name, carl.name], effects: 1 });
  });

  it("bulk approve counts as one approval per call", async () => {
    const runs = await waitingCalls(2);
    const calls = runs.map((run) => run.ref);
    const first = await decideBatch({ action: "approve", calls }, { reviewer: rita.email, databaseUrl: database.url });
    expect(first.results.map((result) => result.status)).toEqual(["awaiting_approvals", "awaiting_approvals"]);
    expect(first.counts).toMatchObject({ awaiting_approvals: 2, applied: 0 });
    expect(first.results[0]!.approvals).toMatchObject({ required: 2, approvals: [{ reviewer: rita.name }] });
    // The same person in bulk again: refused per call, nothing changed.
    const again = await decideBatch({ action: "approve", calls }, { reviewer: rita.email, databaseUrl: database.url });
    expect(again.results.map((result) => result.code)).toEqual(["already_approved_by_you", "already_approved_by_you"]);
    for (const call of calls) expect(await stateOf(call)).toMatchObject({ decision: null, approvals: [rita.name], effects: 0 });
    // Sending it once more writes no more refusals (bulk refusals: once per reviewer, call and code).
    await decideBatch({ action: "approve", calls }, { reviewer: rita.email, databaseUrl: database.url });
    const db = await getDb(database.url);
    expect(await db.auditEvent.count({ where: { reviewer: rita.email, code: "already_approved_by_you", runId: calls[0]!.runId } })).toBe(1);
    const second = await decideBatch({ action: "approve", calls }, { reviewer: bob.email, databaseUrl: database.url });
    expect(second.counts).toMatchObject({ applied: 2 });
    for (const call of calls) expect(await stateOf(call)).toMatchObject({ approvals: [rita.name, bob.name], effects: 1 });
  });

  it("only the assignee decides: each approval is the assignee's, so the second needs the call reassigned", async () => {
    const admin = await createTestAccount(database.url, "admin");
    expect(await runAs(actorOf(admin), () => saveReviewSetting({ agentId: "refunds", onlyAssigneeDecides: true }))).toMatchObject({
      ok: true,
    });
    try {
      const [run] = await waitingCalls(1);
      await assignCall({ ...run!.ref, assigneeId: rita.id }, actorOf(admin), database.url);
      await expect(approve(run!.ref, bob)).rejects.toMatchObject({ code: "not_assignee" });
      expect((await approve(run!.ref, rita)).runState).toBe("awaiting-approvals");
      await assignCall({ ...run!.ref, assigneeId: bob.id }, actorOf(admin), database.url);
      await expect(approve(run!.ref, rita)).rejects.toMatchObject({ code: "not_assignee" });
      expect((await approve(run!.ref, bob)).runState).toBe("completed");
      expect(await stateOf(run!.ref)).toMatchObject({ approvals: [rita.name, bob.name], effects: 1 });
    } finally {
      await runAs(actorOf(admin), () => saveReviewSetting({ agentId: "refunds", onlyAssigneeDecides: false }));
    }
  });

  it("expiry keeps its meaning: a call with one approval expires (declined), later approvals are told", async () => {
    await replaceExpiryRules(database.url, [{ agentId: "refunds", toolName: "issueRefund", afterMinutes: 30 }]);
    try {
      const [run] = await waitingCalls(1);
      await approve(run!.ref, rita);
      expect(await expireOverdueCalls(database.url, minutesFromNow(31))).toBeGreaterThanOrEqual(1);
      const state = await stateOf(run!.ref);
      expect(state.decision).toMatchObject({ action: "expire", state: "applied" });
      expect(state).toMatchObject({ approvals: [rita.name], effects: 0 });
      await expect(approve(run!.ref, bob)).rejects.toMatchObject({ code: "already_decided" });
    } finally {
      await replaceExpiryRules(database.url, []);
    }
  });
});
