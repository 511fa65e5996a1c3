/**
 * Approving from Slack through a real console server (server.mjs on the production build), on
 * SQLite and PostgreSQL: the slash command links over HTTP, a forged request is refused, and a
 * signed click approves through the server's own agents and updates the message on the loopback
 * stand-in for Slack. Needs `next build` first (`npm test` does it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createLinkCode } from "../../lib/slack/links.ts";
import { createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { clickBody, commandBody, signedSlackRequest, startSlackStandIn, type SlackStandIn } from "../helpers/slack-stand-in.ts";

const SECRET = "slack-signing-secret-for-server-tests";

describe.each(["sqlite", "postgres"] as const)("Slack through a console server on %s", (kind) => {
  const database = useTestDatabase(kind);
  let slack: SlackStandIn;
  let server: ConsoleServer;
  let rita: TestAccount;
  const ritaInSlack = { userId: "U-RITA", teamId: "T-ACME" };

  beforeAll(async () => {
    slack = await startSlackStandIn();
    [server, rita] = await Promise.all([
      startConsoleServer(database.url, { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: "xoxb-test", SLACK_API_URL: slack.apiUrl }),
      createTestAccount(database.url, "reviewer", `Rita-${kind}`),
    ]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await slack?.close();
  });

  const post = (path: string, body: string, options: Parameters<typeof signedSlackRequest>[2]) =>
    fetch(signedSlackRequest(`${server.url}${path}`, body, options));

  it("links over HTTP, refuses a forged click, and approves a signed one: tool run once, message replaced", async () => {
    const { code } = await createLinkCode(rita.id, database.url);
    const command = commandBody(`link ${code}`, ritaInSlack);
    const linked = await post("/api/integrations/slack/commands", command, { secret: SECRET });
    expect(await linked.json()).toMatchObject({ response_type: "ephemeral", text: expect.stringContaining(rita.email) });

    const call = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5301"));
    const responseUrl = slack.responseUrl();
    const body = clickBody("approve", call.ref, ritaInSlack, responseUrl);
    const forged = await post("/api/integrations/slack/interactions", body, { secret: "guessed" });
    expect(forged.status).toBe(401);
    const db = await getDb(database.url);
    expect(await db.toolCallDecision.count()).toBe(0);

    const clicked = await post("/api/integrations/slack/interactions", body, { secret: SECRET });
    expect(clicked.status).toBe(200);
    expect(await db.toolEffect.count({ where: { toolCallId: call.ref.toolCallId } })).toBe(1);
    expect(await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: call.ref } })).toMatchObject({
      reviewer: rita.email,
      state: "applied",
      via: "slack",
    });
    expect(slack.responses(responseUrl)).toEqual([
      expect.objectContaining({ replace_original: true, text: expect.stringContaining(`was approved by ${rita.email}`) }),
    ]);
  });
});
