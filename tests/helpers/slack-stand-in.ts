/**
 * A stand-in for Slack on loopback (node:http, PORT_RANGES.slackStandIn): it takes what the console sends to
 * an interaction's response_url (POST /response/<n>) and the Web API methods it calls (POST
 * /api/views.open, /api/chat.update), records each, and answers as Slack does. Point the console at
 * it with SLACK_API_URL=<url>/api/; response URLs it hands out are on the same origin.
 *
 * Requests to Slack are signed here with node:crypto directly, not with the console's own code, so
 * the console's check is tested against an independent signer.
 */
import { createHmac } from "node:crypto";
import http from "node:http";
import { freePort, PORT_RANGES, portRange } from "./ports.ts";

export interface SlackCall {
  path: string;
  contentType: string;
  body: string;
  /** The body as JSON, or (a Web API call's form) its fields. */
  json: Record<string, unknown>;
}

export interface SlackStandIn {
  url: string;
  apiUrl: string;
  calls: SlackCall[];
  /** A fresh response_url. */
  responseUrl(): string;
  /** What was posted to one response_url. */
  responses(url: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const ports = portRange(...PORT_RANGES.slackStandIn);

export async function startSlackStandIn(): Promise<SlackStandIn> {
  const calls: SlackCall[] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const contentType = String(request.headers["content-type"] ?? "");
      const json = contentType.includes("json") ? (JSON.parse(body) as Record<string, unknown>) : formFields(body);
      calls.push({ path: request.url ?? "", contentType, body, json });
      response.writeHead(200, { "content-type": "application/json" });
      if (request.url === "/api/views.open") response.end(JSON.stringify({ ok: true, view: { id: "V123" } }));
      else if (request.url === "/api/chat.update") response.end(JSON.stringify({ ok: true, channel: json.channel, ts: json.ts }));
      else if (request.url?.startsWith("/response/")) response.end(JSON.stringify({ ok: true }));
      else response.end(JSON.stringify({ ok: false, error: "unknown_method" }));
    });
  });
  const port = await freePort(ports);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    apiUrl: `${url}/api/`,
    calls,
    responseUrl: () => `${url}/response/${++next}`,
    responses: (responseUrl) => calls.filter((call) => `${url}${call.path}` === responseUrl).map((call) => call.json),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A Web API call's form body (views.open's `view` is JSON text inside it). */
function formFields(body: string): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.fromEntries(new URLSearchParams(body));
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "string" && /^[[{]/.test(value)) fields[key] = JSON.parse(value) as unknown;
  }
  return fields;
}

/** A request as Slack sends it: form-encoded, signed with `secret` at `timestamp` (seconds). */
export function signedSlackRequest(
  url: string,
  body: string,
  { secret, timestamp = Math.floor(Date.now() / 1000), signature }: { secret: string; timestamp?: number; signature?: string },
): Request {
  const computed = `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(Buffer.byteLength(body)),
      "x-slack-request-timestamp": String(timestamp),
      "x-slack-signature": signature ?? computed,
    },
    body,
  });
}

/** The form body of a button click on a call's message. */
export function clickBody(
  action: "approve" | "decline",
  call: { runId: string; toolCallId: string },
  who: { userId: string; teamId: string },
  responseUrl: string,
): string {
  const payload = {
    type: "block_actions",
    user: { id: who.userId, team_id: who.teamId },
    team: { id: who.teamId },
    trigger_id: "1337.42.abcdef",
    response_url: responseUrl,
    actions: [{ action_id: `approvals_${action}`, value: JSON.stringify(call) }],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** The form body of an `/approvals <text>` slash command sent by `who` (`link <code>` links their account). */
export function commandBody(text: string, who: { userId: string; teamId: string }): string {
  return new URLSearchParams({ command: "/approvals", text, user_id: who.userId, team_id: who.teamId }).toString();
}
