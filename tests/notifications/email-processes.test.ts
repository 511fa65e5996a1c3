/**
 * Email across real processes on SQLite and PostgreSQL: two console servers on one database, each
 * running its maintenance loop, mail every waiting call once between them to a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEmailMode } from "../../lib/notifications/preferences.ts";
import { createTestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink.ts";

describe.each(["sqlite", "postgres"] as const)("email across processes on %s", { timeout: 240_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let sink: SmtpSink;
  const servers: ConsoleServer[] = [];
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await sink?.close();
  });

  it("two console servers mail each waiting call once", async () => {
    const rita = await createTestAccount(database.url, "reviewer");
    await setEmailMode(rita.id, "immediate", database.url);
    const env = { SMTP_URL: sink.url, MAIL_FROM: "Approvals <approvals@example.com>", CONSOLE_URL: "https://approvals.example.com" };
    servers.push(...(await Promise.all([startConsoleServer(database.url, env), startConsoleServer(database.url, env)])));

    const runs = [];
    for (const order of ["ORD-7401", "ORD-7402", "ORD-7403"]) {
      runs.push(await suspendDemoRun(database.url, "refunds", refundRequest(order)));
      await sink.waitFor(runs.length);
    }
    // Long enough for a second email by the other server to show up, were there one.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(sink.received).toHaveLength(runs.length);
    for (const mail of sink.received) expect(mail.to).toEqual([rita.email]);
    const mailed = runs.filter((run) => sink.received.some((mail) => mail.parsed.text?.includes(`/runs/${run.runId}`)));
    expect(mailed).toHaveLength(runs.length);
  });
});
