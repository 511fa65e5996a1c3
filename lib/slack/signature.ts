/**
 * Slack's request signing (https://api.slack.com/authentication/verifying-requests-from-slack):
 * `X-Slack-Signature` is `v0=` + hex HMAC-SHA256, keyed with the app's signing secret, of
 * `v0:<X-Slack-Request-Timestamp>:<raw body>`. A request is taken only when the timestamp is within
 * five minutes of now (a replayed old request is refused) and the signature matches, compared in
 * constant time.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a request's timestamp may be from now, either way. */
export const SLACK_MAX_AGE_SECONDS = 5 * 60;

export type SignatureCheck = { ok: true } | { ok: false; message: string };

export function slackSignature(secret: string, timestamp: string, body: Uint8Array | string): string {
  const hmac = createHmac("sha256", secret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(body);
  return `v0=${hmac.digest("hex")}`;
}

export function checkSlackSignature(
  secret: string,
  headers: Headers,
  body: Uint8Array,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): SignatureCheck {
  const timestamp = headers.get("x-slack-request-timestamp") ?? "";
  const signature = headers.get("x-slack-signature") ?? "";
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { ok: false, message: "The request has no valid X-Slack-Request-Timestamp." };
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) {
    return { ok: false, message: "The request's timestamp is more than 5 minutes from now: it is refused as a possible replay." };
  }
  const expected = Buffer.from(slackSignature(secret, timestamp, body));
  const given = Buffer.from(signature);
  // timingSafeEqual needs equal lengths; a wrong length is already a mismatch (and says nothing about the secret).
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, message: "The request's X-Slack-Signature does not match: it was not signed with this app's signing secret." };
  }
  return { ok: true };
}
