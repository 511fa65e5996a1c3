/**
 * Reads a JSON request body without ever holding more than `limit` bytes of it. A declared
 * Content-Length over the limit is refused before a byte is read; a body that turns out longer than
 * declared (or has no length) is cut off at the limit and the rest is never read. Callers check the
 * session first, so an anonymous client never gets this far.
 */
export type JsonBody =
  { ok: true; value: unknown } | { ok: false; status: 400 | 413; code: "invalid_input" | "payload_too_large"; message: string };

export async function readJsonBody(request: Request, limit: number): Promise<JsonBody> {
  const tooLarge = {
    ok: false,
    status: 413,
    code: "payload_too_large",
    message: `The request body is larger than ${Math.floor(limit / 1024)} KiB.`,
  } as const;
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return tooLarge;
  const bytes = await readAtMost(request.body, limit);
  if (!bytes) return tooLarge;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, status: 400, code: "invalid_input", message: "The request body is not valid UTF-8." };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, code: "invalid_input", message: "The request body is not valid JSON." };
  }
}

/**
 * The raw body, never more than `limit` bytes of it (null when it is larger: declared or found so),
 * for a caller that must see the exact bytes (a signature over them: lib/slack/signature.ts).
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return null;
  return readAtMost(request.body, limit);
}

/** The whole stream if it fits in `limit` bytes; otherwise null, and the stream is cancelled. */
async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
