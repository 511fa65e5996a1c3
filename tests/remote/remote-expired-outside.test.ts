/**
 * A mark expiry only marks, in remote mode end to end: the example Mastra server (a real process)
 * and two real console servers in remote mode on one database, with a webhook receiver. A call
 * expires under a mark-mode rule (this process expires it, as a third remote-mode console whose
 * clock is half an hour ahead: tests/helpers/expiry-rules.ts); then the team approves it directly
 * on their Mastra server. The tool runs once, the history records "decided outside the console"
 * after "expired", the receiver gets `call.expired` and exactly one `call.decided` with
 * `decidedBy: "outside"` although both consoles read the departure, and a reviewer who tries to
 * decide it afterwards is told both. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { listHistory } from "../../lib/audit/history.ts";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { expireOverdueCalls } from "../../lib/decisions/expire.ts";
import { OUTSIDE_REVIEWER } from "../../lib/decisions/outside.ts";
import { auditQuery } from "../../lib/search-params.ts";
import { createEndpoint } from "../../lib/webhooks/endpoints.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { minutesFromNow, replaceExpiryRules } from "../helpers/expiry-rules.ts";
import { startMastraServer, TEST_SERVER_TOKEN, type MastraServerProcess } from "../helpers/mastra-server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

type Delivered = { type: string; data: Record<string, unknown> };

const ENV_KEYS = ["MASTRA_SERVER_URL", "MASTRA_SERVER_TOKEN", "WEBHOOKS_ALLOW_PRIVATE"] as const;

describe.each(["sqlite", "postgres"] as const)("remote mode: decided on the Mastra server after a mark expiry, on %s", (kind) => {
  let database: TestDatabase;
  let mastraServer: MastraServerProcess;
  let receiver: WebhookReceiver;
  let secret: string;
  let consoles: ConsoleServer[] = [];
  let cookie: string;
  const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    mastraServer = await startMastraServer(database.url);
    const remote = { MASTRA_SERVER_URL: mastraServer.url, MASTRA_SERVER_TOKEN: TEST_SERVER_TOKEN, WEBHOOKS_ALLOW_PRIVATE: "1" };
    Object.assign(process.env, remote);
    receiver = await startWebhookReceiver();
    ({ secret } = await createEndpoint(
      { url: receiver.url, eventTypes: ["call.decided", "call.expired"], slack: false, createdBy: "admin@test" },
      database.url,
    ));
    consoles = await Promise.all([startConsoleServer(database.url, remote), startConsoleServer(database.url, remote)]);
    cookie = await sessionCookie(database.url, await createTestAccount(database.url, "reviewer", `rita-${kind}`));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(consoles.map((server) => server.stop()));
    await mastraServer?.stop();
    await receiver?.close();
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await disconnectDb(database.url);
    await database.drop();
  });

  it(
    "expired, then approved directly on the Mastra server: the tool runs once, the history and one call.decided say so",
    { timeout: 120_000 },
    async () => {
      const [console1, console2] = consoles as [ConsoleServer, ConsoleServer];
      await replaceExpiryRules(database.url, [{ agentId: "refunds", afterMinutes: 30, mode: "mark" }]);
      const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7401"));
      const db = await getDb(database.url);
      const effects = () => db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } });
      const outcomes = async () =>
        (await db.auditEvent.findMany({ where: { runId: run.runId }, orderBy: { id: "asc" } })).map((e) => e.outcome);

      expect(await expireOverdueCalls(database.url, minutesFromNow(31))).toBe(1);
      expect(await outcomes()).toEqual(["recorded", "expired"]);
      // The consoles list it as expired, not decidable; the run still waits in the store.
      const listed = (await (await fetch(`${console1.url}/api/runs?resourceId=${run.resource}`, { headers: { cookie } })).json()) as {
        data: { runs: Array<{ toolCalls: Array<{ markedExpired?: unknown }> }> };
      };
      expect(listed.data.runs[0]!.toolCalls[0]!.markedExpired).toMatchObject({ reason: "expired: no reviewer within 30 min" });
      expect(await effects()).toBe(0);

      // What Mastra Studio or the team's own code does: the server's route, without the console.
      const direct = await fetch(`${mastraServer.url}/api/agents/refunds/approve-tool-call`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${TEST_SERVER_TOKEN}` },
        body: JSON.stringify(run.ref),
      });
      expect(direct.status).toBe(200);
      await direct.text(); // the continued run, read to its end
      expect(await effects()).toBe(1);

      // Both consoles read the departure at the same moment (their history pages do), besides their loops.
      const pages = await Promise.all(
        [console1, console2].map(async (server) =>
          (await fetch(`${server.url}/history?resourceId=${run.resource}`, { headers: { cookie } })).text(),
        ),
      );
      for (const page of pages)
        expect(page.includes("decided outside the console"), "the history page names the outside decision").toBe(true);
      expect(await outcomes()).toEqual(["recorded", "expired", "decided-outside"]);
      const { entries } = await listHistory(auditQuery.parse({ resourceId: run.resource }), database.url);
      expect(entries.map((entry) => [entry.head.reviewer, entry.timeline.map((event) => event.outcome)])).toEqual([
        [OUTSIDE_REVIEWER, ["decided-outside"]], // newest first: after the expiry
        ["the expiry rule", ["recorded", "expired"]],
      ]);
      expect(entries[0]!.head.at.getTime()).toBeGreaterThan(entries[1]!.timeline[1]!.at.getTime());
      expect(entries[0]!.head.message).toMatch(/^Marked expired at .* \(expiry mode: mark\), then the run (ended|moved on)/);

      // The receiver: the expiry and the outside decision, each once, signed, whichever console sent them.
      await receiver.waitFor(2);
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // time for a duplicate from the other console, were there one
      const events = receiver.received.map((request) => new Webhook(secret).verify(request.body, request.headers) as Delivered);
      expect(new Set(receiver.received.map((request) => request.headers["webhook-id"])).size).toBe(2);
      expect(events.map((event) => [event.type, event.data.decidedBy, event.data.toolCallId]).sort()).toEqual([
        ["call.decided", "outside", run.ref.toolCallId],
        ["call.expired", "expiry", run.ref.toolCallId],
      ]);
      expect(events.find((event) => event.type === "call.decided")!.data).toMatchObject({
        reviewer: OUTSIDE_REVIEWER,
        action: null,
        state: "applied",
        decidedAt: entries[0]!.head.at.toISOString(),
      });

      // A reviewer trying it now is told both, and nothing is sent.
      const late = await postDecision(console2, cookie, { action: "approve", ...run.ref });
      expect(late.status).toBe(409);
      expect(late.body.error).toMatchObject({
        code: "decided_outside",
        message: expect.stringMatching(/^This call was marked expired at .*, and decided outside the console at \d{4}-/),
      });
      const runPage = await (await fetch(`${console1.url}/runs/${encodeURIComponent(run.runId)}`, { headers: { cookie } })).text();
      expect(runPage.includes("This run is not waiting anymore"), "the run page says the run no longer waits").toBe(true);
      expect(runPage.includes("a call of this run was decided outside the console at"), "the run page names the outside decision").toBe(
        true,
      );
      expect(await effects()).toBe(1);
      expect(await outcomes()).toEqual(["recorded", "expired", "decided-outside", "refused"]);
    },
  );
});
