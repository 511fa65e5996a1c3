import type { Metadata } from "next";
import { Forbidden } from "@/components/forbidden";
import { CreateWebhookForm } from "@/components/admin/create-webhook-form";
import { WebhookEndpointCard } from "@/components/admin/webhook-endpoint";
import { pageAccess } from "@/lib/auth/page-access";
import { listDeliveries, listEndpoints } from "@/lib/webhooks/endpoints";

export const metadata: Metadata = { title: "Webhooks · Agent approvals" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const access = await pageAccess("manageWebhooks", "/admin/webhooks");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const endpoints = await listEndpoints();
  const deliveries = await Promise.all(endpoints.map((endpoint) => listDeliveries(endpoint.id)));
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-sm text-neutral-600">
          Endpoints that hear about calls as they wait and as they are decided, signed the Standard Webhooks way; Slack endpoints get
          messages. Failed deliveries are retried for about a day.
        </p>
      </div>
      <CreateWebhookForm />
      {endpoints.length === 0 ? <p className="text-sm text-neutral-600">No webhooks yet.</p> : null}
      {endpoints.map((endpoint, index) => (
        <WebhookEndpointCard
          key={endpoint.id}
          endpoint={{ ...endpoint, createdAt: endpoint.createdAt.toISOString() }}
          deliveries={deliveries[index]!.map((delivery) => ({
            id: delivery.id,
            eventId: delivery.eventId,
            eventType: delivery.eventType,
            state: delivery.state,
            attempts: delivery.attempts,
            createdAt: delivery.createdAt.toISOString(),
            nextAttemptAt: delivery.nextAttemptAt.toISOString(),
            attemptLog: delivery.attemptLog.map((attempt) => ({
              at: attempt.at.toISOString(),
              ok: attempt.ok,
              responseCode: attempt.responseCode,
              error: attempt.error,
              durationMs: attempt.durationMs,
            })),
          }))}
        />
      ))}
    </div>
  );
}
