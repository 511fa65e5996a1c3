/**
 * Email notifications on SQLite and PostgreSQL, sent to a real SMTP server (tests/helpers/smtp-sink.ts):
 * a demo agent's suspended call reaches the reviewers who chose `immediate`, with tool, agent,
 * resource and a link, and nobody else; call.assigned reaches its assignee alone; hostile values
 * are escaped in the HTML part and never break the subject; the preference action checks its input
 * and the caller's role.
 */
import { describe, expect, it } from "vitest";
import { setNotificationPreference } from "../../lib/actions/set-notification-preference.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { randomUUID } from "node:crypto";
import { assignCall, assignThread } from "../../lib/assignments/assignments.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { refundRequest } from "../helpers/demo-runs.ts";
import { emitEvent } from "../../lib/events/outbox.ts";
import { emailModeOf } from "../../lib/notifications/preferences.ts";
import { sendDueEmails } from "../../lib/notifications/worker.ts";
import { actorOf, createTestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { CONSOLE, useEmailSetup } from "../helpers/email.ts";

describe.each(["sqlite", "postgres"] as const)("email notifications on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const email = useEmailSetup(database);
  const send = (now = new Date()) => sendDueEmails({ databaseUrl: database.url, now });

  it("emails a waiting call right away to an `immediate` reviewer, and not to an `off` reviewer or support", async () => {
    const rita = await email.account("reviewer", "immediate");
    const oscar = await email.account("reviewer", "off");
    // Support may not choose (the action refuses it); even a row written behind its back sends nothing.
    const sam = await email.account("support", "immediate");
    const quiet = await createTestAccount(database.url, "admin"); // no row: off by default

    const run = await email.waitingCall("ORD-7001");
    expect(await send()).toBe(1);
    expect(email.sink.received).toHaveLength(1);
    const [mail] = email.mailsTo(rita);
    expect(mail).toBeDefined();
    for (const other of [oscar, sam, quiet]) expect(email.mailsTo(other)).toHaveLength(0);

    const { parsed } = mail!;
    expect(parsed.from?.value).toEqual([{ name: "Approvals", address: "approvals@example.com" }]);
    expect(parsed.subject).toContain("issueRefund");
    const link = `${CONSOLE}/runs/${encodeURIComponent(run.runId)}`;
    for (const part of [parsed.text!, parsed.html as string]) {
      expect(part).toContain("issueRefund");
      expect(part).toContain("refunds");
      expect(part).toContain(run.resource);
      expect(part).toContain(link);
    }
    expect(parsed.text).toMatch(/Waiting for: (less than a minute|\d+ min)/);

    // Sent once: later rounds find nothing due.
    expect(await send(new Date(Date.now() + 3_600_000))).toBe(0);
    expect(email.sink.received).toHaveLength(1);
    const db = await getDb(database.url);
    expect(await db.emailNotification.findMany({ select: { userId: true, state: true, attempts: true } })).toEqual([
      { userId: rita.id, state: "sent", attempts: 1 },
    ]);
  });

  it("emails call.assigned to the assignee alone", async () => {
    const rita = await email.account("reviewer", "immediate");
    const ada = await email.account("admin", "immediate");
    const db = await getDb(database.url);
    await db.$transaction((tx) =>
      emitEvent(tx, "call.assigned", {
        runId: "run-assigned",
        toolCallId: "call-1",
        toolName: "issueRefund",
        agentId: "refunds",
        threadId: "ticket-1",
        resourceId: "cust_1",
        waitingSince: new Date(Date.now() - 90 * 60_000).toISOString(),
        assigneeId: rita.id,
        assigneeEmail: rita.email,
        assignedBy: ada.email,
      }),
    );
    expect(await send()).toBe(1);
    expect(email.mailsTo(ada)).toHaveLength(0);
    const [mail] = email.mailsTo(rita);
    expect(mail!.parsed.subject).toContain("Assigned to you");
    expect(mail!.parsed.text).toContain(`Assigned to you by ${ada.email}`);
    expect(mail!.parsed.text).toContain("Waiting for: 1 h 30 min");
  });

  it("emails the assignee a real assignment made by an admin, and nobody a call they took themselves", async () => {
    const rita = await email.account("reviewer", "immediate");
    const ada = await email.account("admin", "off");
    const given = await email.waitingCall("ORD-7101");
    const taken = await email.waitingCall("ORD-7102");
    await send();
    email.sink.received.length = 0;

    await assignCall({ ...given.ref, assigneeId: rita.id }, actorOf(ada), database.url);
    await assignCall({ ...taken.ref, assigneeId: rita.id }, actorOf(rita), database.url);
    expect(await send()).toBe(1);
    const mails = email.mailsTo(rita);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.parsed.text).toContain(`Assigned to you by ${ada.email}`);
    expect(mails[0]!.parsed.text).toContain(`/runs/${encodeURIComponent(given.runId)}`);
  });

  it("mails a thread's assignment once, naming the thread and how many calls came with it", async () => {
    const rita = await email.account("reviewer", "immediate");
    const ada = await email.account("admin", "off");
    const thread = `ticket-${randomUUID()}`;
    for (const order of ["ORD-7201", "ORD-7202"]) {
      const mastra = await createConsoleMastra(database.url);
      await runUntilWaiting(mastra.getAgent("refunds"), refundRequest(order), { thread, resource: "cust_7200" });
    }
    await recordWaitingCalls(database.url);
    await send();
    email.sink.received.length = 0;

    await assignThread({ threadId: thread, assigneeId: rita.id }, actorOf(ada), database.url);
    expect(await send()).toBe(1);
    const [mail] = email.mailsTo(rita);
    expect(mail!.parsed.text).toContain(`Assigned to you by ${ada.email}: thread ${thread} (2 waiting calls`);
  });

  it("escapes hostile values in the HTML part and keeps line breaks out of the subject", async () => {
    const rita = await email.account("reviewer", "immediate");
    const hostileTool = `<script>alert("x")</script>\r\nBcc: victim@example.com`;
    const hostileResource = `cust"'><img src=x onerror=alert(1)>\u0000\ud800\u2028end`;
    const db = await getDb(database.url);
    await db.$transaction((tx) =>
      emitEvent(tx, "call.waiting", {
        runId: `run"<b>`,
        toolCallId: "call\u0000",
        toolName: hostileTool,
        agentId: "refunds\n\nInjected body",
        threadId: null,
        resourceId: hostileResource,
        workflowName: "agentic-loop",
        waitingSince: new Date().toISOString(),
      }),
    );
    expect(await send()).toBe(1);
    const [mail] = email.mailsTo(rita);
    const { parsed, raw } = mail!;
    const html = parsed.html as string;
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("cust&quot;&#39;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain(`${CONSOLE}/runs/run%22%3Cb%3E`);
    expect(html).not.toContain("\u0000");
    expect(parsed.text).not.toContain("\u0000");
    expect(parsed.subject).not.toMatch(/[\r\n]/);
    expect(parsed.subject).toContain("<script>");
    // No header of the data's making: the only recipient is the reviewer, and no Bcc line was written.
    const headers = raw.slice(0, raw.indexOf("\r\n\r\n"));
    expect(headers).not.toMatch(/^bcc:/im);
    expect(headers).not.toMatch(/^Injected/m);
    expect(mail!.to).toEqual([rita.email]);
  });

  it("saves a reviewer's choice; refuses an unknown mode and a support user, changing nothing", async () => {
    const rita = await createTestAccount(database.url, "reviewer");
    const sam = await createTestAccount(database.url, "support");
    const asRita = (input: unknown) => runAs(actorOf(rita), () => setNotificationPreference(input));

    expect(await asRita({ email: "weekly" })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await asRita({ email: "hourly", userId: sam.id })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await runAs(actorOf(sam), () => setNotificationPreference({ email: "immediate" }))).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    const db = await getDb(database.url);
    expect(await db.notificationPreference.count()).toBe(0);
    expect(await emailModeOf(rita.id, database.url)).toBe("off");

    expect(await asRita({ email: "hourly" })).toEqual({ ok: true, data: { email: "hourly" } });
    expect(await emailModeOf(rita.id, database.url)).toBe("hourly");
    expect(await emailModeOf(sam.id, database.url)).toBe("off");
  });
});
