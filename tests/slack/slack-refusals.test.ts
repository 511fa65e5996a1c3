/**
 * What Slack requests the console refuses, on SQLite and PostgreSQL: a bad signature, an old
 * timestamp, a console without the signing secret, an unlinked Slack user, a support user. Each is
 * refused or answered as docs/slack.md says, and no decision is recorded, no tool runs; the only row
 * written is a bounded refusal in the audit log. Linking: a code works once, expires, and a wrong
 * one is refused. The console's signature check agrees with a signer written here with node:crypto.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as interactions } from "../../app/api/integrations/slack/interactions/route.ts";
import { POST as commands } from "../../app/api/integrations/slack/commands/route.ts";
import { createSlackLinkCode } from "../../lib/actions/create-slack-link-code.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { MAX_REQUEST_BODY_BYTES } from "../../lib/http/limits.mjs";
import { createLinkCode, LINK_CODE_TTL_MS } from "../../lib/slack/links.ts";
import { checkSlackSignature } from "../../lib/slack/signature.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";
import { clickBody, commandBody, signedSlackRequest, startSlackStandIn, type SlackStandIn } from "../helpers/slack-stand-in.ts";

const SECRET = "slack-signing-secret-for-tests";
const INTERACTIONS = "http://console.test/api/integrations/slack/interactions";
const COMMANDS = "http://console.test/api/integrations/slack/commands";

describe("the Slack signature check", () => {
  it("accepts a signature computed independently with node:crypto, and nothing else", () => {
    const body = new TextEncoder().encode("payload=%7B%22type%22%3A%22block_actions%22%7D");
    const now = 1_796_119_200;
    const signature = `v0=${createHmac("sha256", SECRET).update(`v0:${now}:`).update(body).digest("hex")}`;
    const headers = (sig: string, at = now) => new Headers({ "x-slack-signature": sig, "x-slack-request-timestamp": String(at) });
    expect(checkSlackSignature(SECRET, headers(signature), body, now)).toEqual({ ok: true });
    expect(checkSlackSignature(SECRET, headers(signature), body, now + 300)).toEqual({ ok: true });
    expect(checkSlackSignature(SECRET, headers(signature), body, now + 301).ok).toBe(false);
    expect(checkSlackSignature("another-secret", headers(signature), body, now).ok).toBe(false);
    expect(checkSlackSignature(SECRET, headers(signature.slice(0, -1)), body, now).ok).toBe(false);
    expect(checkSlackSignature(SECRET, headers(signature, now - 1), body, now).ok).toBe(false);
    expect(checkSlackSignature(SECRET, new Headers(), body, now).ok).toBe(false);
  });
});

describe.each(["sqlite", "postgres"] as const)("refused Slack requests on %s", (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let slack: SlackStandIn;
  let sam: TestAccount;
  let call: DemoRun;
  const samInSlack = { userId: `U-SAM-${kind}`, teamId: "T-ACME" };
  const strangerInSlack = { userId: `U-NOBODY-${kind}`, teamId: "T-ACME" };
  const saved = { ...process.env };

  beforeAll(async () => {
    slack = await startSlackStandIn();
    Object.assign(process.env, { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: "xoxb-test", SLACK_API_URL: slack.apiUrl });
    sam = await createTestAccount(database.url, "support", `Sam-${kind}`);
    const { code } = await createLinkCode(sam.id, database.url);
    expect((await command(`link ${code}`, samInSlack)).text).toContain(sam.email);
    call = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5201"));
  });
  afterAll(async () => {
    for (const key of ["SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN", "SLACK_API_URL"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await slack.close();
  });

  async function command(text: string, who: { userId: string; teamId: string }) {
    const body = commandBody(text, who);
    return (await (await commands(signedSlackRequest(COMMANDS, body, { secret: SECRET }))).json()) as {
      response_type: string;
      text: string;
    };
  }

  /** Decisions and tool effects: what a refusal must leave alone. */
  async function decided() {
    const db = await getDb(database.url);
    return { decisions: await db.toolCallDecision.findMany(), effects: await db.toolEffect.count() };
  }

  async function refusalsSince(id: number) {
    const db = await getDb(database.url);
    return db.auditEvent.findMany({ where: { id: { gt: id } }, orderBy: { id: "asc" } });
  }
  const lastAuditId = async () => (await (await getDb(database.url)).auditEvent.findFirst({ orderBy: { id: "desc" } }))?.id ?? 0;

  it("refuses a bad signature and an old timestamp with 401 invalid_signature, recording only a bounded refusal", async () => {
    const before = await decided();
    const since = await lastAuditId();
    const body = clickBody("approve", call.ref, samInSlack, slack.responseUrl());
    const forged = await interactions(signedSlackRequest(INTERACTIONS, body, { secret: "not-the-secret" }));
    const old = await interactions(
      signedSlackRequest(INTERACTIONS, body, { secret: SECRET, timestamp: Math.floor(Date.now() / 1000) - 301 }),
    );
    for (const response of [forged, old]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: "invalid_signature" } });
    }
    expect(await decided()).toEqual(before);
    const rows = await refusalsSince(since);
    expect(rows.map((row) => [row.reviewer, row.outcome, row.code, row.runId, row.args, row.via])).toEqual([
      ["anonymous", "refused", "invalid_signature", "", null, "slack"],
      ["anonymous", "refused", "invalid_signature", "", null, "slack"],
    ]);
    expect(slack.calls).toHaveLength(0);
  });

  it("refuses a body over the limit with 413, from its Content-Length or once the limit is passed, never reading on", async () => {
    const before = await decided();
    const declared = new Request(INTERACTIONS, {
      method: "POST",
      headers: { "content-length": String(MAX_REQUEST_BODY_BYTES + 1) },
      body: "x",
    });
    expect((await interactions(declared)).status).toBe(413);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const streamed = new Request(INTERACTIONS, { method: "POST", body: endless, duplex: "half" } as RequestInit);
    const response = await interactions(streamed);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(pulled).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES + 3 * 64 * 1024);
    expect(await decided()).toEqual(before);
  });

  it("gives a code on /profile only to someone who decides", async () => {
    expect(await runAs(actorOf(sam), () => createSlackLinkCode({}))).toMatchObject({ ok: false, error: { code: "forbidden" } });
    const reviewer = await createTestAccount(database.url, "reviewer");
    const result = await runAs(actorOf(reviewer), () => createSlackLinkCode({}));
    expect(result).toMatchObject({ ok: true, data: { code: expect.stringMatching(/^[A-Z2-9]{10}$/) } });
    expect(await runAs(actorOf(reviewer), () => createSlackLinkCode({ userId: sam.id }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
  });

  it("answers 503 slack_not_configured without a signing secret", async () => {
    delete process.env.SLACK_SIGNING_SECRET;
    try {
      const body = clickBody("approve", call.ref, samInSlack, slack.responseUrl());
      const response = await interactions(signedSlackRequest(INTERACTIONS, body, { secret: SECRET }));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: { code: "slack_not_configured" } });
    } finally {
      process.env.SLACK_SIGNING_SECRET = SECRET;
    }
  });

  it("tells an unlinked Slack user and a support user why, in an ephemeral reply, and decides nothing", async () => {
    const before = await decided();
    for (const [who, action, why] of [
      [strangerInSlack, "approve", /not linked to a console account/],
      [strangerInSlack, "decline", /not linked to a console account/],
      [samInSlack, "approve", /Your role \(support\) may not approve, decline or resume tool calls\. Nothing was decided\./],
      [samInSlack, "decline", /Your role \(support\) may not approve, decline or resume tool calls\. Nothing was decided\./],
    ] as const) {
      const responseUrl = slack.responseUrl();
      const response = await interactions(
        signedSlackRequest(INTERACTIONS, clickBody(action, call.ref, who, responseUrl), { secret: SECRET }),
      );
      expect(response.status).toBe(200);
      expect(slack.responses(responseUrl)).toEqual([
        { response_type: "ephemeral", replace_original: false, text: expect.stringMatching(why) },
      ]);
    }
    expect(await decided()).toEqual(before);
    expect(slack.calls.filter((one) => one.path === "/api/views.open")).toHaveLength(0);
  });

  it("answers a linked user in the language they chose on /profile", async () => {
    const db = await getDb(database.url);
    await db.user.update({ where: { id: sam.id }, data: { locale: "ko" } });
    try {
      const before = await decided();
      const responseUrl = slack.responseUrl();
      await interactions(signedSlackRequest(INTERACTIONS, clickBody("approve", call.ref, samInSlack, responseUrl), { secret: SECRET }));
      expect(slack.responses(responseUrl)).toEqual([
        {
          response_type: "ephemeral",
          replace_original: false,
          text: "현재 역할로는 이 작업을 할 수 없습니다. 아무것도 결정되지 않았습니다.",
        },
      ]);
      expect(await decided()).toEqual(before);
    } finally {
      await db.user.update({ where: { id: sam.id }, data: { locale: null } });
    }
  });

  it("links with a code once; a used, expired or wrong code is refused", async () => {
    const rex = await createTestAccount(database.url, "reviewer", `Rex-${kind}`);
    const rexInSlack = { userId: `U-REX-${kind}`, teamId: "T-ACME" };
    const { code } = await createLinkCode(rex.id, database.url);
    expect(await command(`link ${code}`, rexInSlack)).toEqual({ response_type: "ephemeral", text: expect.stringContaining(rex.email) });
    expect((await command(`link ${code}`, strangerInSlack)).text).toMatch(/not valid/);
    const expired = await createLinkCode(rex.id, database.url, new Date(Date.now() - LINK_CODE_TTL_MS - 1000));
    expect((await command(`link ${expired.code}`, strangerInSlack)).text).toMatch(/not valid/);
    expect((await command("link WRONGCODE1", strangerInSlack)).text).toMatch(/not valid/);
    const db = await getDb(database.url);
    expect(await db.slackLink.findMany({ where: { userId: { in: [rex.id] } } })).toMatchObject([{ slackUserId: rexInSlack.userId }]);
    expect(await db.slackLink.count({ where: { slackUserId: strangerInSlack.userId } })).toBe(0);
    // Only hashes are stored.
    expect(JSON.stringify(await db.slackLinkCode.findMany())).not.toContain(code);
  });
});
