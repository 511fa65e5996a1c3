/**
 * Slack in the endpoint's language (issue 26 item 3), on SQLite and PostgreSQL: a Slack endpoint set
 * to Korean or Traditional Chinese is sent its messages (headline, labels, buttons, times) in that
 * language by the real delivery worker, an English one exactly as before; the message that replaces
 * a clicked one keeps its language; a Slack user not linked yet is answered in the language of the
 * message they clicked, and a slash command from one in the language every Slack endpoint shares.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as commands } from "../../app/api/integrations/slack/commands/route.ts";
import { POST as interactions } from "../../app/api/integrations/slack/interactions/route.ts";
import { getDb } from "../../lib/db/client.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import type { Locale } from "../../lib/i18n/locales.ts";
import { createLinkCode } from "../../lib/slack/links.ts";
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from "../../lib/webhooks/endpoints.ts";
import { deliverDueWebhooks } from "../../lib/webhooks/worker.ts";
import { createTestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";
import { clickBody, commandBody, signedSlackRequest, startSlackStandIn, type SlackStandIn } from "../helpers/slack-stand-in.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const SECRET = "slack-signing-secret-for-tests";
const INTERACTIONS = "http://console.test/api/integrations/slack/interactions";
const COMMANDS = "http://console.test/api/integrations/slack/commands";

type Block = { type: string; text?: { text: string }; fields?: Array<{ text: string }>; elements?: Array<Record<string, unknown>> };
type Message = { text: string; blocks: Block[] };

describe.each(["sqlite", "postgres"] as const)("Slack in the endpoint's language on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const saved = { ...process.env };
  let slack: SlackStandIn;
  const receivers: WebhookReceiver[] = [];
  const rinaInSlack = { userId: `U-RINA-${kind}`, teamId: "T-ACME" };
  const strangerInSlack = { userId: `U-NOBODY-${kind}`, teamId: "T-ACME" };

  beforeAll(async () => {
    slack = await startSlackStandIn();
    Object.assign(process.env, {
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_BOT_TOKEN: "xoxb-test",
      SLACK_API_URL: slack.apiUrl,
      WEBHOOKS_ALLOW_PRIVATE: "1",
      CONSOLE_URL: "https://approvals.example.com/",
    });
    // Rina links her Slack account and has chosen no language on /profile.
    const rina = await createTestAccount(database.url, "reviewer", `Rina-${kind}`);
    const { code } = await createLinkCode(rina.id, database.url);
    expect((await command(`link ${code}`, rinaInSlack)).text).toContain(rina.email);
  });
  afterEach(async () => {
    for (const endpoint of await listEndpoints(database.url)) await deleteEndpoint(endpoint.id, database.url);
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });
  afterAll(async () => {
    for (const key of ["SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN", "SLACK_API_URL", "WEBHOOKS_ALLOW_PRIVATE", "CONSOLE_URL"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await slack.close();
  });

  async function command(text: string, who: { userId: string; teamId: string }) {
    const body = commandBody(text, who);
    return (await (await commands(signedSlackRequest(COMMANDS, body, { secret: SECRET }))).json()) as { text: string };
  }
  const click = (action: "approve" | "decline", value: Record<string, unknown>, who: typeof rinaInSlack, responseUrl: string) =>
    interactions(signedSlackRequest(INTERACTIONS, clickBody(action, value as DemoRun["ref"], who, responseUrl), { secret: SECRET }));

  /** A Slack endpoint per language, each on a receiver of its own; a refund waits and is announced; each gets its message. */
  async function deliverTo(locales: Locale[]): Promise<{ run: DemoRun; messages: Record<string, Message> }> {
    const endpoints: Array<[Locale, WebhookReceiver]> = [];
    for (const locale of locales) {
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      await createEndpoint({ url: receiver.url, eventTypes: ["call.waiting"], slack: true, locale, createdBy: "admin@test" }, database.url);
      endpoints.push([locale, receiver]);
    }
    const run = await suspendDemoRun(database.url, "refunds", refundRequest(`ORD-77${locales.length}`));
    await recordWaitingCalls(database.url);
    await deliverDueWebhooks({ databaseUrl: database.url });
    const messages: Record<string, Message> = {};
    for (const [locale, receiver] of endpoints) {
      const [request] = await receiver.waitFor(1);
      messages[locale] = JSON.parse(request!.body) as Message;
    }
    return { run, messages };
  }

  /** Every text of a message a reader sees: sections, fields, context, button labels. */
  const textsOf = (message: Message) =>
    message.blocks.flatMap((block) => [
      ...(block.text ? [block.text.text] : []),
      ...(block.fields ?? []).map((field) => field.text),
      ...(block.elements ?? []).map((element) => ((element.text as { text?: string } | undefined)?.text ?? (element.text as string)) || ""),
    ]);

  it("sends an English endpoint the message as before, and a Korean one the same message in Korean, buttons and headings too", async () => {
    const { run, messages } = await deliverTo(["en", "ko", "zh-TW"]);
    const link = `https://approvals.example.com/runs/${encodeURIComponent(run.runId)}`;
    const en = messages.en!;
    expect(en.text).toBe("issueRefund waits for a reviewer");
    expect(en.blocks[0]!.text!.text).toBe(`*issueRefund* waits for a reviewer\n<${link}|Open it in the console>`);
    expect(en.blocks[1]!.text!.text).toMatch(/^Waiting since <!date\^\d+\^\{date_short_pretty\} \{time\}\|\d{4}-\d{2}-\d{2}T[\d:.]+Z>$/);
    expect(en.blocks[1]!.fields!.map((field) => field.text.split("\n")[0])).toEqual(["*Agent*", "*Resource*", "*Thread*", "*Tool*"]);
    expect(en.blocks[2]!.text!.text).toMatch(/^\*Arguments\*\n```/);
    expect(en.blocks[3]!.elements).toEqual([{ type: "mrkdwn", text: `Run \`${run.runId}\` · call \`${run.ref.toolCallId}\`` }]);
    expect(en.blocks[4]!.elements!.map((button) => [(button.text as { text: string }).text, button.value])).toEqual([
      ["Approve", JSON.stringify(run.ref)],
      ["Decline", JSON.stringify(run.ref)],
    ]);

    const ko = messages.ko!;
    expect(ko.text).toBe("issueRefund 호출이 검토자를 기다립니다");
    expect(ko.blocks[0]!.text!.text).toBe(`*issueRefund* 호출이 검토자를 기다립니다\n<${link}|콘솔에서 열기>`);
    // Slack shows the time in each reader's own language and zone; the fallback is in Korean, in UTC.
    expect(ko.blocks[1]!.text!.text).toMatch(
      /^대기 시작: <!date\^\d+\^\{date_short_pretty\} \{time\}\|\d{4}\. \d{1,2}\. \d{1,2}\. .+ UTC>$/,
    );
    expect(ko.blocks[1]!.fields!.map((field) => field.text.split("\n")[0])).toEqual(["*에이전트*", "*리소스*", "*스레드*", "*도구*"]);
    expect(ko.blocks[2]!.text!.text).toMatch(/^\*인수\*\n```/);
    expect(ko.blocks[3]!.elements).toEqual([{ type: "mrkdwn", text: `실행 \`${run.runId}\` · 호출 \`${run.ref.toolCallId}\`` }]);
    expect(ko.blocks[4]!.elements!.map((button) => [(button.text as { text: string }).text, button.value])).toEqual([
      ["승인", JSON.stringify({ ...run.ref, locale: "ko" })],
      ["거절", JSON.stringify({ ...run.ref, locale: "ko" })],
    ]);
    expect(messages["zh-TW"]!.blocks[0]!.text!.text).toBe(`*issueRefund* 正在等待審核者\n<${link}|在主控台中開啟>`);
    expect(messages["zh-TW"]!.blocks[4]!.elements!.map((button) => (button.text as { text: string }).text)).toEqual(["核准", "拒絕"]);

    // Nothing English in the Korean and Chinese messages but data: names, ids, the arguments, the link, Slack's date token.
    for (const locale of ["ko", "zh-TW"] as const) {
      const data = [link, run.runId, run.ref.toolCallId, run.resource, run.thread, "issueRefund", "refunds", "UTC"];
      let rest = textsOf(messages[locale]!)
        .join("\n")
        .replace(/```[\s\S]*?```/g, " ")
        .replace(/<!date\^\d+\^\{date_short_pretty\} \{time\}\|/g, " ");
      for (const value of data) rest = rest.split(value).join(" ");
      expect(rest.match(/[A-Za-z]{2,}/g) ?? [], locale).toEqual([]);
    }
  });

  it("replaces a clicked Korean message with the decision in Korean; an unlinked clicker is told in the message's language", async () => {
    const { run, messages } = await deliverTo(["ko"]);
    const value = JSON.parse(messages.ko!.blocks[4]!.elements![0]!.value as string) as Record<string, unknown>;

    const strangerUrl = slack.responseUrl();
    expect((await click("approve", value, strangerInSlack, strangerUrl)).status).toBe(200);
    expect(slack.responses(strangerUrl)).toEqual([
      { response_type: "ephemeral", replace_original: false, text: expect.stringMatching(/^Slack 계정이 콘솔 계정과 연결되어 있지 않아/) },
    ]);
    // The audit log keeps the English, as every stored message.
    const db = await getDb(database.url);
    const refusal = await db.auditEvent.findFirst({ where: { runId: run.runId, code: "slack_not_linked" }, orderBy: { id: "desc" } });
    expect(refusal?.message).toMatch(/^Your Slack account is not linked to a console account/);
    // The same click on an English message (no language in its value) is answered in English, as before.
    const englishUrl = slack.responseUrl();
    await click("decline", run.ref, strangerInSlack, englishUrl);
    expect(slack.responses(englishUrl)[0]!.text).toMatch(
      /^Your Slack account is not linked to a console account, so nothing was decided\./,
    );
    expect(await db.toolCallDecision.count({ where: run.ref })).toBe(0);

    // Rina (linked, no language chosen) approves from the Korean message: the channel's message is replaced in Korean.
    const responseUrl = slack.responseUrl();
    expect((await click("approve", value, rinaInSlack, responseUrl)).status).toBe(200);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: run.ref } })).toMatchObject({
      action: "approve",
      via: "slack",
    });
    const [update] = slack.responses(responseUrl) as Array<{ replace_original: boolean; text: string; blocks: Block[] }>;
    expect(update!.replace_original).toBe(true);
    expect(update!.text).toMatch(/^issueRefund 호출을 \S+ 님이 .+ UTC에 승인했습니다$/);
    expect(update!.blocks[0]!.text!.text).toMatch(/^\*issueRefund\* 호출을 .+ 님이 <!date\^\d+\^.+ UTC>에 승인했습니다$/);
    expect(update!.blocks[1]!.elements).toEqual([{ type: "mrkdwn", text: `실행 \`${run.runId}\` · 호출 \`${run.ref.toolCallId}\`` }]);
  });

  it("answers a slash command from someone not linked in the language all Slack endpoints share, else in English", async () => {
    const usage = async () => (await command("help", strangerInSlack)).text;
    const wrongCode = async () => (await command("link WRONGCODE1", strangerInSlack)).text;
    expect(await usage()).toBe(
      "Send `/approvals link <code>` with the code from your console profile (Link Slack) to approve and decline from Slack.",
    );
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const add = (locale: Locale, slackPreset = true) =>
      createEndpoint(
        { url: receiver.url, eventTypes: ["call.waiting"], slack: slackPreset, locale, createdBy: "admin@test" },
        database.url,
      );
    const korean = await add("ko");
    await add("zh-TW", false); // a raw-event endpoint has no language that counts
    expect(await usage()).toBe(
      "Slack에서 승인하고 거절하려면 콘솔 프로필(‘Slack 연결’)에서 받은 코드를 `/approvals link <code>`(으)로 보내세요.",
    );
    expect(await wrongCode()).toMatch(/^올바른 코드가 아닙니다/);
    const english = await add("en");
    expect(await usage()).toMatch(/^Send `\/approvals link <code>`/);
    expect(await wrongCode()).toMatch(/^That code is not valid/);
    // A disabled endpoint sends nothing: its language does not count either.
    await updateEndpoint(english.id, { enabled: false }, database.url);
    expect(await usage()).toMatch(/^Slack에서 승인하고/);
    await updateEndpoint(korean.id, { locale: "zh-TW" }, database.url);
    expect(await usage()).toMatch(/^若要在 Slack 中核准與拒絕/);
  });
});
