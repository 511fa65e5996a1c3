/**
 * One HTTP attempt at a webhook: a POST through node:http(s), which never follows redirects (a 3xx
 * is a failure), with the SSRF guard on the address connected to, and a time limit.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPrivateAddress, PrivateAddressError, privateAddressesAllowed, publicOnlyLookup } from "./address.ts";

export interface AttemptResult {
  ok: boolean;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
}

const TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is read (and then thrown away): enough to reuse nothing, bound anyway. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export async function postWebhook(target: string, body: string, headers: Record<string, string>): Promise<AttemptResult> {
  const started = performance.now();
  const finish = (result: Omit<AttemptResult, "durationMs">): AttemptResult => ({
    ...result,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return finish({ ok: false, responseCode: null, error: "Not a URL." });
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // A literal address never goes through lookup: check it here.
  if (isIP(host) && !privateAddressesAllowed() && isPrivateAddress(host)) {
    return finish({ ok: false, responseCode: null, error: new PrivateAddressError(host, host).message });
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "agent-approvals-console-webhooks", ...headers },
        lookup: publicOnlyLookup,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on("close", () => {
          const code = response.statusCode ?? 0;
          const ok = code >= 200 && code < 300;
          const error = ok ? null : code >= 300 && code < 400 ? `Redirect (${code}) not followed.` : `HTTP ${code}`;
          resolve(finish({ ok, responseCode: code, error }));
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} s.`)));
    request.on("error", (error) => resolve(finish({ ok: false, responseCode: null, error: error.message })));
    request.end(body);
  });
}
