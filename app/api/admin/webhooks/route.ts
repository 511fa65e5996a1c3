/**
 * GET /api/admin/webhooks — every endpoint, newest first, never its secret.
 * POST /api/admin/webhooks { url, eventTypes, slack, locale? } — adds one (201); the answer holds its whsec_ secret, this once.
 * Admins only, as /admin/webhooks (lib/actions/webhook-operations.ts).
 */
import { serveOperation } from "@/lib/actions/json-route";
import { createWebhookOperation, listWebhooksOperation } from "@/lib/actions/webhook-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listWebhooksOperation);
}

export function POST(request: Request) {
  return serveOperation(request, createWebhookOperation, { body: true, status: 201 });
}
