/** GET /api/admin/webhooks/<id>/deliveries — the endpoint's latest 50 deliveries with their attempts, as the page lists them. */
import { serveOperation } from "@/lib/actions/json-route";
import { listWebhookDeliveriesOperation } from "@/lib/actions/webhook-operations";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, listWebhookDeliveriesOperation, { path: { id: (await params).id } });
}
