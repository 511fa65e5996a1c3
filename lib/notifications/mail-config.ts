/**
 * Email settings, read from the environment in this one place:
 *
 *  - SMTP_URL: where mail is sent, `smtp://user:pass@host:587` (STARTTLS when the server offers it)
 *    or `smtps://user:pass@host:465` (TLS from the start). Unset: email is off (the profile page says so).
 *  - MAIL_FROM: the sender, `Approvals <approvals@example.com>` or a bare address; required with SMTP_URL.
 *
 * A malformed value stops the console at start (lib/server-work.ts) with one line naming it, rather
 * than a console that looks fine and never mails anyone.
 */
import { z } from "zod";

/** `Name <address>` or a bare address; a name may not hold angle brackets, quotes or line breaks. */
const FROM = /^(?:([^<>"\r\n]*?)\s*<([^<>\s]+)>|([^<>\s]+))$/;

const mailEnvironment = z.object({
  SMTP_URL: z.url({
    protocol: /^smtps?$/,
    error: "SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587",
  }),
  MAIL_FROM: z
    .string({ error: "MAIL_FROM is required with SMTP_URL, e.g. Approvals <approvals@example.com>" })
    .trim()
    .transform((text, context) => {
      const match = FROM.exec(text);
      const address = match?.[2] ?? match?.[3];
      if (!match || !address || !z.email().safeParse(address).success) {
        context.addIssue({ code: "custom", message: `MAIL_FROM is not an address like Approvals <approvals@example.com>` });
        return z.NEVER;
      }
      return { name: match[1]?.trim() ?? "", address };
    }),
});

export interface MailSettings {
  smtpUrl: string;
  from: { name: string; address: string };
}

export class MailConfigurationError extends Error {}

/** The mail settings, or null when email is off (SMTP_URL unset). Throws a MailConfigurationError naming every problem. */
export function mailSettings(env: Record<string, string | undefined> = process.env): MailSettings | null {
  if (!env.SMTP_URL) return null;
  const parsed = mailEnvironment.safeParse(env);
  if (!parsed.success) {
    throw new MailConfigurationError(`Email is misconfigured: ${parsed.error.issues.map((issue) => issue.message).join("; ")}.`);
  }
  return { smtpUrl: parsed.data.SMTP_URL, from: parsed.data.MAIL_FROM };
}

/** For pages: whether email goes out at all, never throwing (a misconfigured console has not started). */
export function emailEnabled(env: Record<string, string | undefined> = process.env): boolean {
  try {
    return mailSettings(env) !== null;
  } catch {
    return false;
  }
}
