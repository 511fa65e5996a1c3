/**
 * Approve and decline from Slack, on SQLite and PostgreSQL: signed clicks posted to the real route
 * handler decide through the real demo agents as the linked console account, and the message is
 * replaced through response_url on a loopback stand-in for Slack. A stale button and a race with a
 * console click are answered with who decided first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as interactions } from "../../app/api/integrations/slack/interactions/route.ts";
import { POST as commands } from "../../app/api/integrations/slack/commands/route.ts";
import { approveToolCall } from "../../lib/actions/approve-tool-call.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { ANSWER_SLACK_WITHIN } from "../../lib/integrations/slack-interactions.ts";
import { prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { createRule, deleteRule } from "../../lib/rules/store.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { createLinkCode } from "../../lib/slack/links.ts";
import { setLanguagePreference } from "../../lib/i18n/preferences.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { waitingCallOf, slackMessage } from "../../lib/webhooks/slack.ts";
import { clickBody, commandBody, signedSlackRequest, startSlackStandIn, type SlackStandIn } from "../helpers/slack-stand-in.ts";

const SECRET = "slack-signing-secret-for-tests";
const INTERACTIONS = "http://console.test/api/integrations/slack/interactions";

describe.each(["sqlite", "postgres"] as const)("deciding from Slack on %s", (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let slack: SlackStandIn;
  let rita: TestAccount;
  let ray: TestAccount;
  const ritaInSlack = { userId: `U-RITA-${kind}`, teamId: "T-ACME" };
  const saved = { ...process.env };

  beforeAll(async () => {
    slack = await startSlackStandIn();
    Object.assign(process.env, { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: "xoxb-test", SLACK_API_URL: slack.apiUrl });
    rita = await createTestAccount(database.url, "reviewer", `Rita-${kind}`);
    ray = await createTestAccount(database.url, "reviewer", `Ray-${kind}`);
    // Rita links her Slack account the way the product does: a code from her profile, sent as a slash command.
    const { code } = await createLinkCode(rita.id, database.url);
    const body = commandBody(`link ${code}`, ritaInSlack);
    const linked = await commands(signedSlackRequest("http://console.test/api/integrations/slack/commands", body, { secret: SECRET }));
    expect(await linked.json()).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining(rita.email) });
  });
  afterAll(async () => {
    for (const key of ["SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN", "SLACK_API_URL"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await slack.close();
  });

  const refund = (order: string) => suspendDemoRun(database.url, "refunds", refundRequest(order));
  const click = (action: "approve" | "decline", call: { runId: string; toolCallId: string }, responseUrl: string) =>
    interactions(signedSlackRequest(INTERACTIONS, clickBody(action, call, ritaInSlack, responseUrl), { secret: SECRET }));
  /** Rita submits the decline modal (its private_metadata as views.open got it) with a reason. */
  const submitReason = (privateMetadata: string, reason: string) => {
    const submission = {
      type: "view_submission",
      user: { id: ritaInSlack.userId, team_id: ritaInSlack.teamId },
      team: { id: ritaInSlack.teamId },
      view: {
        callback_id: "approvals_decline_reason",
        private_metadata: privateMetadata,
        state: { values: { reason: { reason: { type: "plain_text_input", value: reason } } } },
      },
    };
    const body = new URLSearchParams({ payload: JSON.stringify(submission) }).toString();
    return interactions(signedSlackRequest(INTERACTIONS, body, { secret: SECRET }));
  };

  it("shows what a call would do, and puts Approve and Decline on an approval call's message; an input request keeps only the link", async () => {
    const approval = await refund("ORD-5100");
    const input = await suspendDemoRun(database.url, "shipping", shippingRequest());
    const waiting = (call: typeof approval) => ({
      type: "call.waiting" as const,
      timestamp: new Date().toISOString(),
      data: { ...call.ref, toolName: "x", agentId: "y" },
    });
    const messageOf = async (call: typeof approval) => {
      const event = waiting(call);
      return slackMessage(event, { call: await waitingCallOf(event, database.url) });
    };
    const approvalMessage = await messageOf(approval);
    expect(approvalMessage.blocks.map((block) => block.type)).toEqual(["section", "section", "section", "context", "actions"]);
    expect(JSON.stringify(approvalMessage.blocks[2])).toMatch(/\*Arguments\*\\n```\{[^`]*\\"orderId\\": \\"ORD-5100\\"/);
    const inputMessage = await messageOf(input);
    expect(inputMessage.blocks.map((block) => block.type)).toEqual(["section", "section", "section", "context"]);
    expect(JSON.stringify(inputMessage.blocks[2])).toContain("*Asks for*");
    // A call that no longer waits (or an event about no call) gets neither.
    expect(await waitingCallOf(waiting({ ...approval, ref: { ...approval.ref, toolCallId: "call_gone" } }), database.url)).toBeNull();
  });

  it("approves a call from a signed click: the tool runs once, via slack, and the message is replaced", async () => {
    const call = await refund("ORD-5101");
    const responseUrl = slack.responseUrl();
    const response = await click("approve", call.ref, responseUrl);
    expect(response.status).toBe(200);
    const db = await getDb(database.url);
    expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(1);
    const decision = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call.ref } });
    expect(decision).toMatchObject({ action: "approve", state: "applied", reviewer: rita.email, via: "slack" });
    const audit = await db.auditEvent.findMany({ where: { runId: call.runId }, orderBy: { id: "asc" } });
    expect(audit.map((row) => [row.reviewer, row.outcome, row.via])).toEqual([
      [rita.email, "recorded", "slack"],
      [rita.email, "applied", "slack"],
    ]);
    const [update] = slack.responses(responseUrl);
    expect(update).toMatchObject({ replace_original: true, text: expect.stringContaining(`issueRefund was approved by ${rita.email} at`) });
    expect(JSON.stringify(update!.blocks)).not.toContain('"actions"');
  });

  it("declines through the modal: views.open gets the trigger, the submission declines with the reason", async () => {
    const call = await refund("ORD-5102");
    const responseUrl = slack.responseUrl();
    expect((await click("decline", call.ref, responseUrl)).status).toBe(200);
    const opened = slack.calls.filter((one) => one.path === "/api/views.open").at(-1)!;
    expect(opened.json).toMatchObject({ trigger_id: "1337.42.abcdef", view: { callback_id: "approvals_decline_reason" } });
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.count({ where: call.ref })).toBe(0); // nothing decided before the reason
    const view = opened.json.view as { private_metadata: string };
    const response = await submitReason(view.private_metadata, "Already refunded <by the bank>");
    expect(response.status).toBe(200);
    expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(0);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call.ref } })).toMatchObject({
      action: "decline",
      state: "applied",
      reason: "Already refunded <by the bank>",
      via: "slack",
    });
    const [update] = slack.responses(responseUrl);
    expect(JSON.stringify(update!.blocks)).toContain("Reason: Already refunded &lt;by the bank&gt;");
  });

  it("answers a stale button with who decided first, and changes nothing", async () => {
    const call = await refund("ORD-5103");
    expect((await runAs(actorOf(ray), () => approveToolCall(call.ref))).ok).toBe(true);
    const db = await getDb(database.url);
    const before = await db.toolCallDecision.findMany({ orderBy: { id: "asc" } });
    for (const action of ["approve", "decline"] as const) {
      const responseUrl = slack.responseUrl();
      expect((await click(action, call.ref, responseUrl)).status).toBe(200);
      expect(slack.responses(responseUrl)).toEqual([
        {
          response_type: "ephemeral",
          replace_original: false,
          text: expect.stringMatching(new RegExp(`^This call was already approved by ${ray.email} at \\d{4}-\\d\\d-\\d\\dT`)),
        },
      ]);
    }
    expect(await db.toolCallDecision.findMany({ orderBy: { id: "asc" } })).toEqual(before);
    expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(1);
  });

  it("a Slack click and a console click race: one wins, the other is told who won", async () => {
    const call = await refund("ORD-5104");
    const responseUrl = slack.responseUrl();
    const [, consoleResult] = await Promise.all([
      click("approve", call.ref, responseUrl),
      runAs(actorOf(ray), () => approveToolCall(call.ref)),
    ]);
    const db = await getDb(database.url);
    expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(1);
    const decision = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call.ref } });
    const [answer] = slack.responses(responseUrl);
    if (decision.reviewer === rita.email) {
      expect(decision.via).toBe("slack");
      expect(consoleResult).toMatchObject({ ok: false, error: { code: "already_decided", priorDecision: { reviewer: rita.email } } });
      expect(answer).toMatchObject({ replace_original: true });
    } else {
      expect(decision).toMatchObject({ reviewer: ray.email, via: "console" });
      expect(consoleResult.ok).toBe(true);
      expect(answer).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining(`already approved by ${ray.email}`) });
    }
  });

  it("answers Slack before its 3 s deadline when the agent takes longer, and replaces the message when done", async () => {
    const db = await getDb(database.url);
    const approveCall = await refund("ORD-5105");
    const declineCall = await refund("ORD-5106");
    const normal = ANSWER_SLACK_WITHIN.ms;
    // Every carry-out is "too long" now: each request is answered at once.
    ANSWER_SLACK_WITHIN.ms = 0;
    try {
      const approveUrl = slack.responseUrl();
      expect((await click("approve", approveCall.ref, approveUrl)).status).toBe(200);
      expect(await db.toolEffect.count({ where: { toolCallId: approveCall.ref.toolCallId } })).toBe(0); // answered before the tool ran
      await expect.poll(() => slack.responses(approveUrl).length, { timeout: 60_000 }).toBe(1);
      expect(slack.responses(approveUrl)[0]).toMatchObject({ replace_original: true, text: expect.stringContaining("was approved by") });
      expect(await db.toolEffect.count({ where: { toolCallId: approveCall.ref.toolCallId } })).toBe(1);

      const declineUrl = slack.responseUrl();
      expect((await click("decline", declineCall.ref, declineUrl)).status).toBe(200);
      const view = slack.calls.filter((one) => one.path === "/api/views.open").at(-1)!.json.view as { private_metadata: string };
      const answered = await submitReason(view.private_metadata, "Refunded by phone");
      expect(answered.status).toBe(200);
      expect(await answered.text()).toBe(""); // the modal closes; the outcome follows through response_url
      await expect.poll(() => slack.responses(declineUrl).length, { timeout: 60_000 }).toBe(1);
      expect(JSON.stringify(slack.responses(declineUrl)[0]!.blocks)).toContain("Reason: Refunded by phone");
      expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: declineCall.ref } })).toMatchObject({
        action: "decline",
        state: "applied",
        via: "slack",
      });
    } finally {
      ANSWER_SLACK_WITHIN.ms = normal;
    }
  });

  it("the reply to an approval that counts is in the clicker's language (Rita chose Korean on her profile)", async () => {
    const db = await getDb(database.url);
    const rule = await createRule(
      db,
      ruleInputSchema.parse({
        name: "four eyes in Korean",
        enabled: true,
        agentId: "refunds",
        conditions: [{ path: "amount", op: ">", value: 500 }],
        effect: "require_approvals",
        approvals: 2,
        risk: "high",
      }),
      "admin@test.example",
    );
    await setLanguagePreference(rita.id, { locale: "ko", timeZone: "" }, database.url);
    try {
      const call = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5108", "800.00 EUR"));
      await recordWaitingCalls(database.url, prepareRuleMatches);
      const url = slack.responseUrl();
      expect((await click("approve", call.ref, url)).status).toBe(200);
      expect(slack.responses(url)).toEqual([
        expect.objectContaining({
          response_type: "ephemeral",
          text: `승인이 반영되었습니다: 승인 1/2건 (${rita.name}). 도구가 실행되려면 다른 검토자의 승인이 더 필요합니다.`,
        }),
      ]);
    } finally {
      await setLanguagePreference(rita.id, { locale: "", timeZone: "" }, database.url);
      await deleteRule(db, rule.id, "admin@test.example");
    }
  });

  it("a call that needs two approvals: Rita's Slack click counts as one, her second is refused, Ray's in the console carries it out", async () => {
    const db = await getDb(database.url);
    const rule = await createRule(
      db,
      ruleInputSchema.parse({
        name: "four eyes",
        enabled: true,
        agentId: "refunds",
        conditions: [{ path: "amount", op: ">", value: 500 }],
        effect: "require_approvals",
        approvals: 2,
        risk: "high",
      }),
      "admin@test.example",
    );
    try {
      const call = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5107", "900.00 EUR"));
      await recordWaitingCalls(database.url, prepareRuleMatches);
      const first = slack.responseUrl();
      expect((await click("approve", call.ref, first)).status).toBe(200);
      expect(slack.responses(first)).toEqual([
        expect.objectContaining({
          response_type: "ephemeral",
          text: expect.stringContaining(`Your approval counts: 1 of 2 approvals (${rita.name}).`),
        }),
      ]);
      const again = slack.responseUrl();
      await click("approve", call.ref, again);
      expect(slack.responses(again)).toEqual([
        expect.objectContaining({ text: expect.stringContaining("You already approved this call") }),
      ]);
      expect(await db.callApproval.findMany({ where: call.ref })).toMatchObject([{ reviewerName: rita.name, via: "slack" }]);
      expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(0);
      expect(await runAs(actorOf(ray), () => approveToolCall(call.ref))).toMatchObject({ ok: true, data: { runState: "completed" } });
      expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(1);
    } finally {
      await deleteRule(db, rule.id, "admin@test.example");
    }
  });
});
