import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { CreateWebhookForm } from "@/components/admin/create-webhook-form";
import { WebhookEndpointCard } from "@/components/admin/webhook-endpoint";
import { pageAccess } from "@/lib/auth/page-access";
import { listDeliveries, listEndpoints } from "@/lib/webhooks/endpoints";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("nav.webhooks") }) };
}
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const access = await pageAccess("manageWebhooks", "/admin/webhooks");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const t = await getTranslations();
  const endpoints = await listEndpoints();
  const deliveries = await Promise.all(endpoints.map((endpoint) => listDeliveries(endpoint.id)));
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("nav.webhooks")}</h1>
        <p className="mt-1 text-sm text-neutral-600">{t("admin.webhooks.intro")}</p>
      </div>
      <CreateWebhookForm />
      {endpoints.length === 0 ? <p className="text-sm text-neutral-600">{t("admin.webhooks.none")}</p> : null}
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
