/**
 * A real SMTP server for email tests (smtp-server on 127.0.0.1, a port of the system's choosing):
 * records every message it accepts, parsed with mailparser, with the envelope's recipients. While
 * `refusing` it answers the message with a temporary failure (451), as a mail server under
 * trouble does; closed, nothing listens (connection refused).
 */
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  /** The message as sent, headers and all. */
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  /** What SMTP_URL would be: smtp://127.0.0.1:<port>. */
  url: string;
  received: ReceivedMail[];
  refusing: boolean;
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: "",
    received: [],
    refusing: false,
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (sink.received.length < count) {
        if (Date.now() > deadline) throw new Error(`Got ${sink.received.length} of ${count} emails within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return sink.received;
    },
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (sink.refusing) {
          callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then((parsed) => {
            sink.received.push({ to: session.envelope.rcptTo.map((address) => address.address), raw, parsed });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
