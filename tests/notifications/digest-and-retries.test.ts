/**
 * The email workers over time, on SQLite and PostgreSQL, against a real SMTP server: the hourly
 * digest (one email an hour holding every call queued since the last), retries while the mail
 * server is down (attempts counted, then delivered once), and two workers racing on one database
 * (each email sent once). Rounds take `now`, so the clock moves instead of the test waiting.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { OUTBOX_KEPT_MS, pruneOutbox } from "../../lib/webhooks/retention.ts";
import { sendDueEmails } from "../../lib/notifications/worker.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { CONSOLE, useEmailSetup } from "../helpers/email.ts";
import { startSmtpSink } from "../helpers/smtp-sink.ts";

const HOUR = 3_600_000;

describe.each(["sqlite", "postgres"] as const)("email digests and retries on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  const email = useEmailSetup(database);
  const send = (now: Date) => sendDueEmails({ databaseUrl: database.url, now });

  it("sends an `hourly` reviewer one digest an hour, naming every call queued since the last", async () => {
    const hana = await email.account("reviewer", "hourly");
    const first = await email.waitingCall("ORD-7101");
    const second = await email.waitingCall("ORD-7102");
    const start = Date.now();

    expect(await send(new Date(start))).toBe(0);
    expect(email.sink.received).toHaveLength(0);

    expect(await send(new Date(start + HOUR))).toBe(1);
    expect(email.mailsTo(hana)).toHaveLength(1);
    const { parsed } = email.mailsTo(hana)[0]!;
    expect(parsed.subject).toBe("Approvals digest: 2 calls waiting");
    for (const run of [first, second]) {
      expect(parsed.text).toContain(`${CONSOLE}/runs/${encodeURIComponent(run.runId)}`);
      expect(parsed.html).toContain(run.resource);
    }

    // Nothing more: that hour's calls are sent.
    expect(await send(new Date(start + HOUR + 1_000))).toBe(0);
    expect(email.sink.received).toHaveLength(1);

    // A call queued now would be due in an hour, but the last digest went at start + 1 h: it waits for start + 2 h, and goes alone.
    const third = await email.waitingCall("ORD-7103");
    expect(await send(new Date(start + 2 * HOUR - 60_000))).toBe(0);
    expect(await send(new Date(start + 2 * HOUR + 60_000))).toBe(1);
    const latest = email.mailsTo(hana)[1]!.parsed;
    expect(latest.subject).toBe("Approvals digest: 1 call waiting");
    expect(latest.text).toContain(third.runId);
    expect(latest.text).not.toContain(first.runId);
    expect(await send(new Date(start + 5 * HOUR))).toBe(0);
    expect(email.sink.received).toHaveLength(2);
  });

  it("lists calls decided meanwhile as already decided, and sends no single email for a decided call", async () => {
    const hana = await email.account("reviewer", "hourly");
    const rita = await email.account("reviewer", "immediate");
    const decided = await email.waitingCall("ORD-7151");
    const open = await email.waitingCall("ORD-7152");
    await decide({ action: "approve", ...decided.ref }, { reviewer: "ada@test.example", databaseUrl: database.url });
    const start = Date.now();

    // Rita's email about the decided call is skipped; the other one goes.
    expect(await send(new Date(start))).toBe(1);
    expect(email.mailsTo(rita).map((mail) => mail.parsed.text)).toEqual([expect.stringContaining(open.resource)]);
    const db = await getDb(database.url);
    expect(
      (await db.emailNotification.findMany({ where: { userId: rita.id }, select: { state: true } })).map((row) => row.state).sort(),
    ).toEqual(["sent", "skipped"]);

    expect(await send(new Date(start + HOUR))).toBe(1);
    const digest = email.mailsTo(hana)[0]!.parsed;
    expect(digest.subject).toBe("Approvals digest: 1 call waiting");
    const [waiting, already] = digest.text!.split("Already decided in the console:");
    expect(waiting).toContain(open.runId);
    expect(already).toContain(decided.resource);
    expect(digest.text).not.toContain(decided.runId); // no link to a call nobody needs to open
  });

  it("keeps an email pending while the mail server is down or refusing, then delivers it once", async () => {
    const rita = await email.account("reviewer", "immediate");
    // Nothing listens at first: connection refused.
    const gone = await startSmtpSink();
    await gone.close();
    process.env.SMTP_URL = gone.url;
    await email.waitingCall("ORD-7201");
    const db = await getDb(database.url);
    const row = async () => db.emailNotification.findFirstOrThrow({ where: { userId: rita.id } });
    const start = Date.now();

    expect(await send(new Date(start))).toBe(1);
    expect(await row()).toMatchObject({ state: "pending", attempts: 1, leaseUntil: null });
    expect((await row()).lastError).toBeTruthy();

    // The server is back but refusing (451); not due before the backoff's 10 s.
    process.env.SMTP_URL = email.sink.url;
    email.sink.refusing = true;
    expect(await send(new Date(start + 5_000))).toBe(0);
    expect(await send(new Date(start + 11_000))).toBe(1);
    expect(await row()).toMatchObject({ state: "pending", attempts: 2 });
    expect(email.sink.received).toHaveLength(0);

    email.sink.refusing = false;
    expect(await send(new Date(start + 20_000))).toBe(0); // 30 s after the second attempt
    expect(await send(new Date(start + 45_000))).toBe(1);
    expect(await send(new Date(start + HOUR))).toBe(0);
    expect(email.mailsTo(rita)).toHaveLength(1);
    expect(await row()).toMatchObject({ state: "sent", attempts: 3, lastError: null });
  });

  it("sends each email once when two workers race on the same database", async () => {
    const rita = await email.account("reviewer", "immediate");
    const ada = await email.account("admin", "immediate");
    const hana = await email.account("reviewer", "hourly");
    await email.waitingCall("ORD-7301");
    await email.waitingCall("ORD-7302");
    const now = Date.now();

    const counts = await Promise.all([send(new Date(now)), send(new Date(now))]);
    expect(counts[0] + counts[1]).toBe(4);
    expect(email.mailsTo(rita)).toHaveLength(2);
    expect(email.mailsTo(ada)).toHaveLength(2);

    const digests = await Promise.all([send(new Date(now + HOUR + 1_000)), send(new Date(now + HOUR + 1_000))]);
    expect(digests[0] + digests[1]).toBe(1);
    expect(email.mailsTo(hana)).toHaveLength(1);
    expect(email.sink.received).toHaveLength(5);

    // Pruned with their events once those are past the outbox's retention.
    await pruneOutbox({ databaseUrl: database.url, now: new Date(now + OUTBOX_KEPT_MS + HOUR) });
    expect(await (await getDb(database.url)).emailNotification.count()).toBe(0);
  });
});
