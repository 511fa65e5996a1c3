/** POST /api/admin/webhooks/<id>/deliveries/<deliveryId>/retry {} — the delivery log's Retry. */
import { serveOperation } from "@/lib/actions/json-route";
import { retryWebhookDeliveryOperation } from "@/lib/actions/webhook-operations";

export async function POST(request: Request, { params }: { params: Promise<{ id: string; deliveryId: string }> }) {
  const { id, deliveryId } = await params;
  return serveOperation(request, retryWebhookDeliveryOperation, { body: true, path: { endpointId: id, deliveryId } });
}
