/**
 * Decline and suggest, on SQLite and PostgreSQL, with the real demo refunds agent on its scripted
 * model: the reviewer declines a refund of 80 suggesting 50; the model, told so in the decline's
 * reason, calls issueRefund again with exactly those arguments, and that call is approved by the
 * one-time suggestion when it starts waiting (the tool runs once, the history says "approved as
 * suggested by …"). Arguments that do not fit the tool's schema are refused and change nothing; a
 * next call with other arguments (or in another thread) waits for a person and spends the
 * suggestion; a suggestion is never used twice, and an expired one never applies.
 */
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { transition, type DecisionAudit } from "../../lib/decisions/ledger.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { runConsoleProcess } from "../helpers/console-process.ts";
import { crashingConsole } from "../helpers/crash.ts";
import { decideRuleMatches, prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { suggestedArgumentsIn } from "../../lib/suggestion-wording.ts";
import { suggestInput } from "../../lib/suggestions/inputs.ts";
import { suggestionRow } from "../../lib/decisions/suggestion-record.ts";
import { declineWithSuggestion } from "../../lib/suggestions/suggest.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest } from "../helpers/demo-runs.ts";

const RITA = "rita@test.example";

describe.each(["sqlite", "postgres"] as const)("decline and suggest on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  beforeEach(async () => {
    const db = await getDb(database.url);
    await db.rule.deleteMany();
    await db.suggestion.deleteMany();
  });

  /** A refund request on `thread` (a fresh Mastra per run: Mastra holds a second stream on a busy thread). */
  async function refundOn(thread: string, resource: string, order: string, amount: string) {
    const mastra = await createConsoleMastra(database.url);
    const { runId, toolCallId } = await runUntilWaiting(mastra.getAgent("refunds"), refundRequest(order, amount), { thread, resource });
    return { runId, toolCallId };
  }
  const newThread = () => ({ thread: `ticket-${randomUUID()}`, resource: `cust_${randomUUID()}` });
  const onePass = async () => {
    await recordWaitingCalls(database.url, prepareRuleMatches);
    return decideRuleMatches(database.url);
  };
  async function waitingCall(runId: string) {
    const run = await findSuspendedRun(runId, database.url);
    return run?.toolCalls[0];
  }
  /** Rita's suggestion of 50 for a declined call on `thread`, which the model reads no suggestion in (a model that ignores it). */
  async function ignoredSuggestion(thread: string, resource: string, order: string) {
    const declined = await refundOn(thread, resource, order, "80.00 EUR");
    const asked = (await waitingCall(declined.runId))!.args as Record<string, unknown>;
    await onePass();
    const args = JSON.stringify({ amount: 50, currency: "EUR", customerEmail: asked.customerEmail, orderId: order, reason: asked.reason });
    const suggestion = suggestionRow({
      ...declined,
      agentId: "refunds",
      threadId: thread,
      resourceId: resource,
      toolName: "issueRefund",
      args,
      suggestedBy: RITA,
    });
    await decide({ action: "decline", reason: "too much", ...declined }, { reviewer: RITA, databaseUrl: database.url, suggestion });
  }
  const suggest = (ref: { runId: string; toolCallId: string }, args: unknown, reason?: string) =>
    declineWithSuggestion(suggestInput.parse({ ...ref, args: JSON.stringify(args), reason }), {
      reviewer: RITA,
      databaseUrl: database.url,
    });

  it("the model calls again with the suggested arguments and that call is approved as suggested, once", async () => {
    const db = await getDb(database.url);
    const { thread, resource } = newThread();
    const declined = await refundOn(thread, resource, "ORD-5001", "80.00 EUR");
    expect(await onePass()).toBe(0); // announced, nothing to decide yet
    const asked = (await waitingCall(declined.runId))!.args as Record<string, unknown>;
    expect(asked.amount).toBe(80);

    const outcome = await suggest(declined, { ...asked, amount: 50 }, "Only the damaged item");
    expect(outcome).toMatchObject({ action: "decline", runState: "waiting-again" });
    // The model was told which arguments to use, in words and as JSON, and called again with exactly those.
    const decline = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: declined } });
    expect(decline).toMatchObject({ action: "decline", reviewer: RITA, state: "applied" });
    expect(decline.reason).toMatch(
      /^Only the damaged item\. A reviewer declined this call of issueRefund and suggests different arguments/,
    );
    expect(suggestedArgumentsIn(decline.reason!)).toEqual({ ...asked, amount: 50 });
    const recall = (await waitingCall(declined.runId))!;
    expect(recall.toolCallId).not.toBe(declined.toolCallId);
    expect(recall.args).toEqual({ ...asked, amount: 50 });

    expect(await onePass()).toBe(1);
    const approved = await db.toolCallDecision.findUniqueOrThrow({
      where: { runId_toolCallId: { runId: declined.runId, toolCallId: recall.toolCallId! } },
    });
    expect(approved).toMatchObject({ action: "approve", state: "applied", reviewer: `suggestion by ${RITA}`, ruleId: null });
    expect(approved.answer).toMatch(/Refund .* issued: 50 EUR for order ORD-5001/);
    const effects = await db.toolEffect.findMany({ where: { agentId: "refunds", threadId: thread } });
    expect(effects.map((effect) => [effect.toolCallId, JSON.parse(effect.input).amount])).toEqual([[recall.toolCallId, 50]]);
    expect(await db.workflowSnapshot.count({ where: { runId: declined.runId } })).toBe(0);
    expect(await db.suggestion.findFirst()).toMatchObject({ outcome: "approved", usedToolCallId: recall.toolCallId });
    const history = await db.auditEvent.findMany({ where: { runId: declined.runId }, orderBy: { id: "asc" } });
    expect(history.map((row) => [row.action, row.outcome, row.reviewer, row.message])).toEqual([
      ["decline", "recorded", RITA, null],
      ["decline", "applied", RITA, null],
      ["approve", "recorded", `suggestion by ${RITA}`, `approved as suggested by ${RITA}`],
      ["approve", "applied", `suggestion by ${RITA}`, null],
    ]);
    // A reviewer clicking afterwards is told the suggestion decided.
    await expect(
      decide(
        { action: "decline", runId: declined.runId, toolCallId: recall.toolCallId! },
        { reviewer: "sam@test.example", databaseUrl: database.url },
      ),
    ).rejects.toMatchObject({
      code: "already_decided",
      message: expect.stringMatching(/^suggestion by rita@test\.example already approved/),
    });

    // Not a second time: the agent's next call in the thread with the same arguments waits for a person.
    const again = await refundOn(thread, resource, "ORD-5001", "50.00 EUR");
    expect((await waitingCall(again.runId))!.args).toEqual({ ...asked, amount: 50 });
    expect(await onePass()).toBe(0);
    expect(await db.toolCallDecision.count({ where: { runId: again.runId } })).toBe(0);
    expect(await waitingCall(again.runId)).toBeDefined();
  });

  it("refuses arguments that do not fit the tool's schema (or are the call's own), changing nothing", async () => {
    const db = await getDb(database.url);
    const { thread, resource } = newThread();
    const call = await refundOn(thread, resource, "ORD-5101", "80.00 EUR");
    const asked = (await waitingCall(call.runId))!.args as Record<string, unknown>;
    await expect(suggest(call, { ...asked, amount: "fifty" })).rejects.toMatchObject({
      code: "invalid_suggestion",
      message: expect.stringMatching(/^The suggested arguments do not match what issueRefund expects: amount/),
    });
    await expect(suggest(call, { ...asked, currency: "XYZ" })).rejects.toMatchObject({ code: "invalid_suggestion" });
    await expect(suggest(call, { ...asked })).rejects.toMatchObject({
      code: "invalid_suggestion",
      message: expect.stringMatching(/approve the call instead/),
    });
    for (const args of ["{", "[1]", '{"__proto__": {}}', `{"a": "${"x".repeat(17_000)}"}`]) {
      expect(suggestInput.safeParse({ ...call, args }).success, args.slice(0, 20)).toBe(false);
    }
    expect(await db.suggestion.count()).toBe(0);
    expect(await db.toolCallDecision.count({ where: { runId: call.runId } })).toBe(0);
    expect((await waitingCall(call.runId))?.toolCallId).toBe(call.toolCallId);
    const refusals = await db.auditEvent.findMany({ where: { runId: call.runId, outcome: "refused" } });
    expect(refusals.map((row) => [row.reviewer, row.code])).toEqual(Array(3).fill([RITA, "invalid_suggestion"]));
  });

  it("a next call with other arguments (or in another thread) waits for a person and spends the suggestion", async () => {
    const db = await getDb(database.url);
    const { thread, resource } = newThread();
    await ignoredSuggestion(thread, resource, "ORD-5201");

    const elsewhere = newThread(); // the suggested arguments, in another thread: not this suggestion's
    const otherThread = await refundOn(elsewhere.thread, elsewhere.resource, "ORD-5201", "50.00 EUR");
    const otherArgs = await refundOn(thread, resource, "ORD-5201", "60.00 EUR");
    expect(await onePass()).toBe(0);
    const suggestionAfter = await db.suggestion.findFirstOrThrow();
    expect(suggestionAfter).toMatchObject({ outcome: "other_args", usedToolCallId: otherArgs.toolCallId });
    const suggested = await refundOn(thread, resource, "ORD-5201", "50.00 EUR");
    expect(await onePass()).toBe(0);
    for (const run of [otherThread, otherArgs, suggested]) {
      expect(await db.toolCallDecision.count({ where: { runId: run.runId } })).toBe(0);
      expect((await waitingCall(run.runId))?.toolCallId).toBe(run.toolCallId);
    }
    expect(await db.toolEffect.count({ where: { agentId: "refunds", resourceId: { in: [resource, elsewhere.resource] } } })).toBe(0);
  });

  it("three calls with the suggested arguments, claimed by two console processes at once: exactly one is approved", async () => {
    const db = await getDb(database.url);
    const { thread, resource } = newThread();
    await ignoredSuggestion(thread, resource, "ORD-5401");
    const calls = [];
    for (let i = 0; i < 3; i++) calls.push(await refundOn(thread, resource, "ORD-5401", "50.00 EUR"));
    const racers = await Promise.all([runConsoleProcess([database.url, "rules"]), runConsoleProcess([database.url, "rules"])]);
    for (const racer of racers) expect(racer.code, racer.stderr).toBe(0);
    const approvals = await db.toolCallDecision.findMany({ where: { runId: { in: calls.map((call) => call.runId) } } });
    expect(approvals.map((decision) => [decision.action, decision.state, decision.reviewer])).toEqual([
      ["approve", "applied", `suggestion by ${RITA}`],
    ]);
    expect(await db.toolEffect.count({ where: { resourceId: resource } })).toBe(1);
    expect(await db.suggestion.findFirst()).toMatchObject({ outcome: "approved", usedToolCallId: approvals[0]!.toolCallId });
    const stillWaiting = await Promise.all(calls.map((call) => waitingCall(call.runId)));
    expect(stillWaiting.filter(Boolean)).toHaveLength(2);
  });

  it("a released decline's suggestion is withdrawn or replaced by the decision that takes the call over", async () => {
    const db = await getDb(database.url);
    const { killedWhile } = crashingConsole(database);
    /** A decline and suggest whose process stopped once the agent was asked, then released as the agent failing does. */
    const released = async (order: string) => {
      const { thread, resource } = newThread();
      const call = await refundOn(thread, resource, order, "80.00 EUR");
      await onePass();
      const asked = (await waitingCall(call.runId))!.args as Record<string, unknown>;
      await killedWhile(["suggest", call.runId, call.toolCallId, JSON.stringify({ ...asked, amount: 50 })], "after-send");
      const applying = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call } });
      const failed = {
        outcome: "failed",
        code: "agent_failed",
        message: "The agent could not continue the run. The tool call is decidable again.",
      };
      expect(await transition(db, applying, "applying", "released", { error: "stopped" }, failed as DecisionAudit)).toBe(true);
      // Recorded with its decline; left while the decline is released, it approves nothing.
      expect(await db.suggestion.findMany({ where: call })).toMatchObject([{ suggestedBy: "crash-tester", usedAt: null }]);
      return { call, asked, thread };
    };

    // Taken over by a plain decline: the released decline's suggestion is withdrawn with it.
    const plain = await released("ORD-5501");
    await decide({ action: "decline", reason: "no", ...plain.call }, { reviewer: "crash-tester", databaseUrl: database.url });
    expect(await db.suggestion.count({ where: plain.call })).toBe(0);

    // Taken over by another suggestion: that one is the call's only suggestion, and the model is told it.
    const other = await released("ORD-5502");
    const sam = "sam@test.example";
    const outcome = await declineWithSuggestion(
      suggestInput.parse({ ...other.call, args: JSON.stringify({ ...other.asked, amount: 40 }), reason: "Forty" }),
      { reviewer: sam, databaseUrl: database.url },
    );
    expect(outcome).toMatchObject({ action: "decline", runState: "waiting-again" });
    expect(await db.suggestion.findMany({ where: other.call })).toMatchObject([{ suggestedBy: sam, usedAt: null }]);
    const decline = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: other.call } });
    expect(suggestedArgumentsIn(decline.reason!)).toEqual({ ...other.asked, amount: 40 });
    expect(await onePass()).toBe(1);
    const effects = await db.toolEffect.findMany({ where: { threadId: other.thread } });
    expect(effects.map((effect) => JSON.parse(effect.input).amount)).toEqual([40]);
  });

  it("an expired suggestion is not applied", async () => {
    const db = await getDb(database.url);
    const { thread, resource } = newThread();
    const declined = await refundOn(thread, resource, "ORD-5301", "80.00 EUR");
    await onePass();
    const asked = (await waitingCall(declined.runId))!.args as Record<string, unknown>;
    await suggest(declined, { ...asked, amount: 50 });
    const recall = (await waitingCall(declined.runId))!;
    expect(recall.args).toEqual({ ...asked, amount: 50 });
    // The window closed before the call was claimed.
    await db.suggestion.updateMany({ data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await onePass()).toBe(0);
    expect(await db.toolCallDecision.count({ where: { runId: declined.runId, action: "approve" } })).toBe(0);
    expect((await waitingCall(declined.runId))?.toolCallId).toBe(recall.toolCallId);
    expect(await db.suggestion.findFirst()).toMatchObject({ usedAt: null });
    expect(await db.toolEffect.count({ where: { threadId: thread } })).toBe(0);
  });
});
