/**
 * A real HTTP receiver for webhook tests (node:http on 127.0.0.1, PORT_RANGES.webhookReceiver): records every
 * request it gets and answers with the next of `answers` (then 200), e.g. [500, 500] fails twice.
 * An answer `{ redirectTo }` answers 302 with that Location.
 */
import http from "node:http";
import { freePort, PORT_RANGES, portRange } from "./ports.ts";

export interface ReceivedRequest {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type ReceiverAnswer = number | { redirectTo: string };

export interface WebhookReceiver {
  url: string;
  received: ReceivedRequest[];
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const ports = portRange(...PORT_RANGES.webhookReceiver);

export async function startWebhookReceiver(answers: ReceiverAnswer[] = []): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const pending = [...answers];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
      received.push({ headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const answer = pending.shift() ?? 200;
      if (typeof answer === "number") response.writeHead(answer).end();
      else response.writeHead(302, { location: answer.redirectTo }).end();
    });
  });
  const port = await freePort(ports);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`Got ${received.length} of ${count} webhook requests within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
