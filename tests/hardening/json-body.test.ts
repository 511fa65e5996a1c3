/**
 * The JSON API's own body reader, for when the console is served without server.mjs's gate (plain
 * `next start`): it never holds more than its limit, whatever the request declares.
 */
import { describe, expect, it } from "vitest";
import { readJsonBody } from "../../lib/http/json-body.ts";

/** A streamed request of `chunks` × 64 KiB that counts how many chunks were pulled from it. */
function streamedRequest(chunks: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
    },
  });
  const request = new Request("http://console.test/api/decisions", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("readJsonBody", () => {
  it("stops reading a body of unknown length at the limit", async () => {
    const { request, pulled } = streamedRequest(1_000);
    expect(await readJsonBody(request, 256 * 1024)).toMatchObject({ ok: false, status: 413, code: "payload_too_large" });
    expect(pulled()).toBeLessThanOrEqual(6);
  });

  it("refuses a declared length over the limit without reading", async () => {
    const { request, pulled } = streamedRequest(1_000, { "content-length": String(64 * 1024 * 1024) });
    expect(await readJsonBody(request, 256 * 1024)).toMatchObject({ ok: false, status: 413 });
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it("reads JSON within the limit, and refuses malformed JSON and invalid UTF-8 with 400", async () => {
    const post = (body: BodyInit) => new Request("http://console.test/", { method: "POST", body });
    expect(await readJsonBody(post('{"action":"approve"}'), 1024)).toEqual({ ok: true, value: { action: "approve" } });
    expect(await readJsonBody(post("{not json"), 1024)).toMatchObject({
      ok: false,
      status: 400,
      message: "The request body is not valid JSON.",
    });
    expect(await readJsonBody(post(new Uint8Array([0x7b, 0xff, 0x7d])), 1024)).toMatchObject({
      ok: false,
      status: 400,
      message: "The request body is not valid UTF-8.",
    });
  });
});
