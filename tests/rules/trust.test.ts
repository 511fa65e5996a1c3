/**
 * "Approve and trust" (lib/rules/trust.ts), on SQLite and PostgreSQL, with the real demo refunds
 * agent on its scripted model: a reviewer approves a refund and trusts the same calls; the rule goes
 * first, names the reviewer and ends when asked; the agent's next refund on that resource is approved
 * by it before it ends (and kept out of the queue), and nothing is after (a rule whose end is 2 s past, written through the same
 * function with an earlier `now`: no sleeping). Ticked arguments narrow it to calls with those
 * values. Refused, writing no rule: an agent whose admin forbade trust, a tool a rule rates high,
 * a call somebody decided first, a call that waits for data, the support role.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approveAndTrust as approveAndTrustAction } from "../../lib/actions/approve-and-trust.ts";
import { saveReviewSetting } from "../../lib/assignments/review-settings.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { applyRuleToWaitingCalls } from "../../lib/rules/apply.ts";
import { decideRuleMatches, prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { callKey, callsDecidedByItself } from "../../lib/rules/deciding-by-itself.ts";
import { createRule, listRules, listRuleVersions } from "../../lib/rules/store.ts";
import { approveAndTrust, type TrustRequest } from "../../lib/rules/trust.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { dryRunSchema, ruleInputSchema } from "../../lib/rules/validations.ts";
import { dryRunRule } from "../../lib/rules/waiting-calls.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

const MINUTE = 60_000;

describe.each(["sqlite", "postgres"] as const)("approve and trust on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let rita: TestAccount, bob: TestAccount, sam: TestAccount;
  beforeAll(async () => {
    const suffix = randomUUID().slice(0, 6);
    [rita, bob, sam] = await Promise.all([
      createTestAccount(database.url, "reviewer", `Rita-${suffix}`),
      createTestAccount(database.url, "reviewer", `Bob-${suffix}`),
      createTestAccount(database.url, "support", `Sam-${suffix}`),
    ]);
  });
  beforeEach(async () => {
    const db = await getDb(database.url);
    await db.rule.deleteMany();
    await db.agentReviewSetting.deleteMany();
  });

  /** A refund on `resource` (a fresh thread and Mastra per run: Mastra holds a second stream on a busy thread). */
  async function refundOn(resource: string, amount = "20.00 EUR", order = `ORD-${randomUUID().slice(0, 6)}`) {
    const mastra = await createConsoleMastra(database.url);
    const thread = `ticket-${randomUUID()}`;
    const { runId, toolCallId } = await runUntilWaiting(mastra.getAgent("refunds"), refundRequest(order, amount), { thread, resource });
    return { runId, toolCallId };
  }
  const newResource = () => `cust_${randomUUID()}`;
  /** One pass of the console's loop: claim the newly waiting calls (rules judged then), decide the matches. */
  const onePass = async () => {
    await recordWaitingCalls(database.url, prepareRuleMatches);
    return decideRuleMatches(database.url);
  };
  const trust = (ref: { runId: string; toolCallId: string }, fields: Partial<TrustRequest> = {}, now?: Date) =>
    approveAndTrust(
      { ...ref, duration: "15m", sameArguments: [], ...fields },
      { reviewer: rita.email, timeZone: "UTC", databaseUrl: database.url, now },
    );
  async function stateOf(ref: { runId: string; toolCallId: string }) {
    const db = await getDb(database.url);
    return {
      decision: await db.toolCallDecision.findUnique({ where: { runId_toolCallId: ref } }),
      effects: await db.toolEffect.count({ where: { toolCallId: ref.toolCallId } }),
    };
  }
  const ruleCount = async () => (await getDb(database.url)).rule.count();
  /** Whether the review queue leaves a call not claimed yet out, as one the rules will decide (lib/rules/deciding-by-itself.ts). */
  async function hiddenFromQueue(ref: { runId: string; toolCallId: string }) {
    const run = (await findSuspendedRun(ref.runId, database.url))!;
    return (await callsDecidedByItself(await getDb(database.url), [run], new Date())).has(callKey(ref.runId, ref.toolCallId));
  }

  it("approves the call, and its rule (first, by the reviewer, ending in 15 min) approves the next same call, once", async () => {
    const db = await getDb(database.url);
    const admins = await createRule(db, ruleInputSchema.parse({ name: "ask about refunds", enabled: true, effect: "ask" }), "admin@x");
    const resource = newResource();
    const first = await refundOn(resource);
    await onePass(); // claimed: the admin's rule leaves it to a person
    const before = Date.now();
    const outcome = await trust(first);
    expect(outcome).toMatchObject({ action: "approve", runState: "completed" });
    expect(await stateOf(first)).toMatchObject({ decision: { state: "applied", reviewer: rita.email }, effects: 1 });

    const rule = outcome.trustedRule!;
    expect(rule).toMatchObject({
      enabled: true,
      agentId: "refunds",
      toolName: "issueRefund",
      resource,
      resourceMatch: "exact",
      callKind: "approval",
      conditions: [],
      effect: "approve",
      trustedBy: rita.email,
      version: 1,
    });
    const ends = Date.parse(rule.expiresAt!);
    expect(ends - before).toBeGreaterThanOrEqual(15 * MINUTE - 1_000);
    expect(ends - Date.now()).toBeLessThanOrEqual(15 * MINUTE);
    expect((await listRules(db)).map((listed) => listed.id)).toEqual([rule.id, admins.id]); // first: it wins
    expect((await listRuleVersions(db, rule.id)).map((version) => [version.version, version.change, version.changedBy])).toEqual([
      [1, "created", rita.email],
    ]);
    const history = await db.auditEvent.findMany({ where: { runId: first.runId }, orderBy: { id: "asc" } });
    expect(history.find((row) => row.outcome === "recorded")?.message).toContain(
      `rule "${rule.name}" approves the same calls until ${rule.expiresAt}`,
    );

    const next = await refundOn(resource, "35.00 EUR");
    expect(await hiddenFromQueue(next)).toBe(true); // the console's to decide, never in the queue
    expect(await onePass()).toBe(1);
    expect(await stateOf(next)).toMatchObject({
      decision: { action: "approve", state: "applied", reviewer: `rule '${rule.name}' (version 1)`, ruleId: rule.id },
      effects: 1,
    });
    // Another resource is not trusted: it waits for a person.
    const elsewhere = await refundOn(newResource());
    expect(await onePass()).toBe(0);
    expect(await stateOf(elsewhere)).toMatchObject({ decision: null, effects: 0 });
  });

  it("a rule that ended 2 s ago matches nothing: not at the claim, not in a dry run, not when applied", async () => {
    const db = await getDb(database.url);
    const resource = newResource();
    const first = await refundOn(resource);
    // Trusted for 15 minutes starting 15 minutes and 2 seconds ago: it ended 2 s ago.
    const outcome = await trust(first, {}, new Date(Date.now() - 15 * MINUTE - 2_000));
    const rule = outcome.trustedRule!;
    expect(Date.parse(rule.expiresAt!)).toBeLessThan(Date.now());
    const next = await refundOn(resource);
    expect(await hiddenFromQueue(next)).toBe(false); // a person's to decide
    expect(await onePass()).toBe(0);
    expect(await stateOf(next)).toMatchObject({ decision: null, effects: 0 });
    expect((await db.callRuleMatch.findUnique({ where: { runId_toolCallId: next } }))?.ruleId ?? null).toBeNull();
    expect((await dryRunRule(db, rule, { page: 1, pageSize: 10 })).matched).toBe(0);
    // As the rules page sends a saved rule to its dry run (its fields and end, not the store's id, version, place or truster).
    const { id: _id, version: _version, position: _position, trustedBy: _trustedBy, ...asSent } = rule;
    expect((await dryRunRule(db, dryRunSchema.parse({ rule: asSent }).rule, { page: 1, pageSize: 10 })).matched).toBe(0);
    expect(await applyRuleToWaitingCalls(rule.id, database.url)).toMatchObject({ matched: 0, decided: 0 });
    // The same rule, judged a moment before its end, would have matched the waiting call.
    expect((await dryRunRule(db, rule, { page: 1, pageSize: 10 }, new Date(Date.parse(rule.expiresAt!) - 1))).matched).toBe(1);
    expect(await stateOf(next)).toMatchObject({ decision: null, effects: 0 });
  });

  it("ticked arguments: the rule approves only calls with this call's values of them", async () => {
    const resource = newResource();
    const first = await refundOn(resource, "20.00 EUR");
    const { trustedRule } = await trust(first, { sameArguments: ["amount", "currency"] });
    expect(trustedRule!.conditions).toEqual([
      { path: "amount", op: "equals", value: 20 },
      { path: "currency", op: "equals", value: "EUR" },
    ]);
    const other = await refundOn(resource, "30.00 EUR");
    const otherCurrency = await refundOn(resource, "20.00 USD");
    const same = await refundOn(resource, "20.00 EUR");
    expect(await onePass()).toBe(1);
    expect(await stateOf(same)).toMatchObject({ decision: { reviewer: `rule '${trustedRule!.name}' (version 1)` }, effects: 1 });
    for (const waiting of [other, otherCurrency]) expect(await stateOf(waiting)).toMatchObject({ decision: null, effects: 0 });
    // A field the call does not have (or that is not a scalar) is refused, nothing written.
    await expect(trust(other, { sameArguments: ["customer.tier"] })).rejects.toMatchObject({ code: "trust_refused" });
    expect(await ruleCount()).toBe(1);
  });

  it("an agent whose admin forbade trust: refused and recorded, no rule, the call still waits", async () => {
    const db = await getDb(database.url);
    await saveReviewSetting({ agentId: "refunds", allowTrust: false }, { updatedBy: "admin@x", servedAgentIds: ["refunds"] }, database.url);
    const call = await refundOn(newResource());
    await expect(trust(call)).rejects.toMatchObject({ code: "trust_forbidden", message: expect.stringContaining("refunds") });
    expect(await ruleCount()).toBe(0);
    expect(await stateOf(call)).toMatchObject({ decision: null, effects: 0 });
    expect(await db.auditEvent.findFirst({ where: { runId: call.runId } })).toMatchObject({ outcome: "refused", code: "trust_forbidden" });
    // The other switch is left as it was; allowed again, the same call is trusted.
    expect(await db.agentReviewSetting.findUnique({ where: { agentId: "refunds" } })).toMatchObject({ onlyAssigneeDecides: false });
    await saveReviewSetting({ agentId: "refunds", allowTrust: true }, { updatedBy: "admin@x", servedAgentIds: ["refunds"] }, database.url);
    expect((await trust(call)).trustedRule).not.toBeNull();
  });

  it("a tool a rule rates high (or holds for two approvers) is never trusted", async () => {
    const db = await getDb(database.url);
    const guard = (fields: object) =>
      createRule(
        db,
        ruleInputSchema.parse({ name: "large refunds", enabled: true, effect: "ask", toolName: "issueRefund", ...fields }),
        "a@x",
      );
    const call = await refundOn(newResource());
    const high = await guard({ conditions: [{ path: "amount", op: ">", value: 500 }], risk: "high" });
    await expect(trust(call)).rejects.toMatchObject({ code: "trust_refused", message: expect.stringContaining('Rule "large refunds"') });
    await db.rule.delete({ where: { id: high.id } });
    await guard({ agentId: "refunds", effect: "require_approvals", approvals: 2 });
    await expect(trust(call)).rejects.toMatchObject({ code: "trust_refused", message: expect.stringContaining("2 approvers") });
    expect(await ruleCount()).toBe(1);
    expect(await stateOf(call)).toMatchObject({ decision: null, effects: 0 });
    // A rule about another resource, or one that has ended, guards nothing here.
    await db.rule.deleteMany();
    await guard({ resource: "vip_", resourceMatch: "prefix", risk: "critical" });
    expect((await trust(call)).trustedRule).not.toBeNull();
  });

  it("a call somebody decided first: the usual already_decided, and no rule; racing, exactly one wins", async () => {
    const decided = await refundOn(newResource());
    await decide({ action: "approve", ...decided }, { reviewer: bob.email, databaseUrl: database.url });
    await expect(trust(decided)).rejects.toMatchObject({ code: "already_decided", priorDecision: { reviewer: bob.email } });
    expect(await ruleCount()).toBe(0);

    const raced = await refundOn(newResource());
    const [bobs, ritas] = await Promise.allSettled([
      decide({ action: "decline", reason: "no", ...raced }, { reviewer: bob.email, databaseUrl: database.url }),
      trust(raced),
    ]);
    expect([bobs.status, ritas.status].sort()).toEqual(["fulfilled", "rejected"]);
    const { decision } = await stateOf(raced);
    expect(await ruleCount()).toBe(decision?.reviewer === rita.email ? 1 : 0);
    if (ritas.status === "rejected") expect(ritas.reason).toMatchObject({ code: "already_decided" });
  });

  it("through the action: a reviewer's today ends at midnight in their zone; support and input calls are refused", async () => {
    const db = await getDb(database.url);
    await db.user.update({ where: { id: rita.id }, data: { timeZone: "Asia/Seoul" } });
    const call = await refundOn(newResource());
    const result = await runAs(actorOf(rita), () => approveAndTrustAction({ ...call, duration: "today", timeZone: "America/New_York" }));
    expect(result.ok).toBe(true);
    const expiresAt = result.ok ? new Date(result.data.trustedRule!.expiresAt!) : null;
    // Midnight in Seoul (the zone Rita chose wins over the browser's): 15:00 UTC.
    expect(expiresAt!.getUTCHours()).toBe(15);
    expect(expiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(24 * 60 * MINUTE);

    const other = await refundOn(newResource());
    expect(await runAs(actorOf(sam), () => approveAndTrustAction({ ...other, duration: "1h" }))).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(await runAs(actorOf(bob), () => approveAndTrustAction({ ...other, duration: "2h" } as never))).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("duration") },
    });
    expect(await runAs(actorOf(bob), () => approveAndTrustAction({ ...other, duration: "1h", timeZone: "Mars/Base" }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("IANA") },
    });
    const shipping = await suspendDemoRun(database.url, "shipping", shippingRequest());
    expect(await runAs(actorOf(bob), () => approveAndTrustAction({ ...shipping.ref, duration: "1h" }))).toMatchObject({
      ok: false,
      error: { code: "wrong_kind" },
    });
    expect(await ruleCount()).toBe(1);
    expect(await stateOf(other)).toMatchObject({ decision: null, effects: 0 });
  });
});
