/**
 * The history's CSV export says where each decision was made, so an export tells Slack decisions
 * from the console's and the API's (docs/api.md: "via"), on SQLite and PostgreSQL through a real console
 * server: a click in Slack, the console's buttons (server actions), POST /api/decisions and its bulk
 * route, and the console's Decline selected. docs/api.md lists the export's columns as the code does.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_CSV_COLUMNS } from "../../lib/audit/queries.ts";
import { createLinkCode } from "../../lib/slack/links.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { callServerAction, postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";
import { clickBody, commandBody, signedSlackRequest, startSlackStandIn, type SlackStandIn } from "../helpers/slack-stand-in.ts";

const SECRET = "slack-signing-secret-for-the-csv-test";

/** The export as records by column name (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
function records(csv: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const char = csv[i]!;
    if (quoted && char === '"' && csv[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ",") {
      row.push(field);
      field = "";
    } else if (!quoted && char === "\r" && csv[i + 1] === "\n") {
      rows.push([...row, field]);
      row = [];
      field = "";
      i++;
    } else {
      field += char;
    }
  }
  const [columns, ...lines] = rows;
  return lines.map((line) => Object.fromEntries(line.map((value, i) => [columns![i], value])));
}

describe("the CSV columns in docs/api.md", () => {
  it("are the export's, in order", () => {
    const readme = readFileSync("docs/api.md", "utf8");
    const listed = /The CSV export's columns, in order: ([^.]+)\./.exec(readme)?.[1];
    expect(listed, "docs/api.md: The CSV export's columns, in order: …").toBeDefined();
    expect([...listed!.matchAll(/`(\w+)`/g)].map(([, column]) => column)).toEqual([...AUDIT_CSV_COLUMNS]);
  });
});

describe.each(["sqlite", "postgres"] as const)("the history's CSV on %s", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let slack: SlackStandIn;
  let server: ConsoleServer;
  let rita: TestAccount;
  let cookie: string;

  beforeAll(async () => {
    slack = await startSlackStandIn();
    [server, rita] = await Promise.all([
      startConsoleServer(database.url, { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: "xoxb-test", SLACK_API_URL: slack.apiUrl }),
      createTestAccount(database.url, "reviewer", `Rita-${kind}`),
    ]);
    cookie = await sessionCookie(database.url, rita);
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
    await slack?.close();
  });

  const slackPost = (path: string, body: string) => fetch(signedSlackRequest(`${server.url}${path}`, body, { secret: SECRET }));

  it("has a via column saying slack, console or api for each decision", async () => {
    const ritaInSlack = { userId: "U-RITA", teamId: "T-ACME" };
    const { code } = await createLinkCode(rita.id, database.url);
    const command = commandBody(`link ${code}`, ritaInSlack);
    expect((await slackPost("/api/integrations/slack/commands", command)).status).toBe(200);

    // One after the other: Mastra instances setting up one fresh PostgreSQL store at once may collide.
    const runs: DemoRun[] = [];
    for (const order of ["ORD-7101", "ORD-7102", "ORD-7103", "ORD-7104", "ORD-7105"]) {
      runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(order)));
    }
    const [bySlack, byButton, byApi, byApiBulk, byButtonBulk] = runs;
    const clicked = await slackPost(
      "/api/integrations/slack/interactions",
      clickBody("approve", bySlack!.ref, ritaInSlack, slack.responseUrl()),
    );
    expect(clicked.status).toBe(200);
    expect((await callServerAction(server, "approveToolCall", [byButton!.ref], { cookie })).result).toMatchObject({ ok: true });
    expect(await postDecision(server, cookie, { action: "decline", ...byApi!.ref, reason: "Not today" })).toMatchObject({ status: 200 });
    const bulk = await fetch(`${server.url}/api/decisions/bulk`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie },
      // A call that names nothing waiting: the request's one refusal row says where it came from too.
      body: JSON.stringify({ action: "approve", calls: [byApiBulk!.ref, { runId: "run-that-never-was", toolCallId: "call-x" }] }),
    });
    expect(bulk.status).toBe(200);
    const bulkButton = await callServerAction(server, "decideInBulk", [{ action: "approve", calls: [byButtonBulk!.ref] }], { cookie });
    expect(bulkButton.result).toMatchObject({ ok: true });

    const csv = await fetch(`${server.url}/history/export?outcome=applied`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    const viaOf = Object.fromEntries(records(await csv.text()).map((record) => [record.runId, record.via]));
    expect(viaOf).toEqual({
      [bySlack!.runId]: "slack",
      [byButton!.runId]: "console",
      [byApi!.runId]: "api",
      [byApiBulk!.runId]: "api",
      [byButtonBulk!.runId]: "console",
    });
    const refused = await fetch(`${server.url}/history/export?outcome=refused`, { headers: { cookie } });
    const bulkRefusal = records(await refused.text()).filter((record) => record.message?.startsWith("Bulk approve: 1 of 2 calls"));
    expect(bulkRefusal.map((record) => record.via)).toEqual(["api"]);
  });
});
