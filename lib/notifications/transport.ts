/**
 * Sending one email over SMTP with nodemailer (the de-facto Node mailer: SMTP, STARTTLS/TLS,
 * encoded headers and MIME parts, no dependencies of its own). One transport per SMTP_URL for the
 * process; time limits well inside the workers' lease, so a live worker never loses its claim.
 */
import { createTransport } from "nodemailer";
import type { MailSettings } from "./mail-config.ts";
import type { Email } from "./message.ts";

export type SendResult = { ok: true } | { ok: false; error: string };

type Transporter = ReturnType<typeof createTransport>;

const transports = new Map<string, Transporter>();

function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    const url = new URL(smtpUrl);
    transport = createTransport({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 587,
      secure: url.protocol === "smtps:",
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    transports.set(smtpUrl, transport);
  }
  return transport;
}

export async function sendEmail(settings: MailSettings, to: string, email: Email): Promise<SendResult> {
  try {
    await transportFor(settings.smtpUrl).sendMail({
      from: settings.from,
      to,
      subject: email.subject,
      text: email.text,
      html: email.html,
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message || String(error) };
  }
}
