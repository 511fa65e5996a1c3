/**
 * GET /api/openapi.json — the JSON API's OpenAPI 3.1 document (lib/openapi), generated from the zod
 * schemas the routes validate with. Public, as the docs describing the same routes are; 304 when
 * If-None-Match names its ETag.
 */
import { servedDocument } from "@/lib/openapi/document";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  const { json, etag } = servedDocument();
  const headers = { etag, "cache-control": "no-cache" };
  const sent = request.headers.get("if-none-match");
  if (sent && sent.split(",").some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers });
  return new Response(json, { headers: { ...headers, "content-type": "application/json" } });
}
