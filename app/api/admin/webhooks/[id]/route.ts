/** PATCH /api/admin/webhooks/<id> { enabled?, locale? } — the page's Enable / Disable and its Slack messages' language. */
import { serveOperation } from "@/lib/actions/json-route";
import { updateWebhookOperation } from "@/lib/actions/webhook-operations";

export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, updateWebhookOperation, { body: true, path: { id: (await params).id } });
}
