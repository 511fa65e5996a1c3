/**
 * What the email tests share: a fresh SMTP sink per test as the console's SMTP_URL, reviewers
 * with a chosen email mode, and demo calls suspended and announced as the console's loop would.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { Role } from "../../lib/auth/roles.ts";
import { getDb } from "../../lib/db/client.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import type { EmailMode } from "../../lib/notifications/modes.ts";
import { setEmailMode } from "../../lib/notifications/preferences.ts";
import { createTestAccount, type TestAccount } from "./accounts.ts";
import { refundRequest, suspendDemoRun } from "./demo-runs.ts";
import { startSmtpSink, type SmtpSink } from "./smtp-sink.ts";

export const CONSOLE = "https://approvals.example.com";

export function useEmailSetup(database: { readonly url: string }) {
  const state: { sink: SmtpSink } = { sink: undefined as unknown as SmtpSink };
  const previous = { smtp: process.env.SMTP_URL, from: process.env.MAIL_FROM, console: process.env.CONSOLE_URL };
  beforeAll(() => {
    process.env.MAIL_FROM = "Approvals <approvals@example.com>";
    process.env.CONSOLE_URL = `${CONSOLE}/`;
  });
  beforeEach(async () => {
    state.sink = await startSmtpSink();
    process.env.SMTP_URL = state.sink.url;
  });
  afterEach(async () => {
    await state.sink.close();
    // Each test starts with nobody asking for email and nothing queued.
    const db = await getDb(database.url);
    await db.notificationPreference.deleteMany();
    await db.emailNotification.deleteMany();
  });
  afterAll(() => {
    for (const [name, value] of [
      ["SMTP_URL", previous.smtp],
      ["MAIL_FROM", previous.from],
      ["CONSOLE_URL", previous.console],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  return {
    get sink() {
      return state.sink;
    },
    /** An account of `role` whose saved email choice is `mode` (written directly: support may not choose). */
    async account(role: Role, mode: EmailMode): Promise<TestAccount> {
      const account = await createTestAccount(database.url, role);
      await setEmailMode(account.id, mode, database.url);
      return account;
    },
    /** A demo refund suspended and announced (call.waiting), as the console's loop would. */
    async waitingCall(order: string) {
      const run = await suspendDemoRun(database.url, "refunds", refundRequest(order));
      await recordWaitingCalls(database.url);
      return run;
    },
    /** The mails the sink accepted for `account`. */
    mailsTo(account: { email: string }) {
      return state.sink.received.filter((mail) => mail.to.includes(account.email));
    },
  };
}
