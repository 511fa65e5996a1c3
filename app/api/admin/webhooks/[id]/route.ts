/** PATCH /api/admin/webhooks/<id> { enabled } — the page's Enable / Disable. */
import { serveOperation } from "@/lib/actions/json-route";
import { setWebhookEnabledOperation } from "@/lib/actions/webhook-operations";

export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, setWebhookEnabledOperation, { body: true, path: { id: (await params).id } });
}
