"use client";

import { LocaleOptions } from "@/components/locale-options";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { retryWebhookDelivery } from "@/lib/actions/retry-webhook-delivery";
import { updateWebhook } from "@/lib/actions/update-webhook";
import { LOCALE_NAMES, type Locale } from "@/lib/i18n/locales";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useErrorText } from "@/components/error-text";
import { useTimestamp } from "@/components/time";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

interface Attempt {
  at: string;
  ok: boolean;
  responseCode: number | null;
  error: string | null;
  durationMs: number;
}
interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  state: string;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  attemptLog: Attempt[];
}
interface Endpoint {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  slack: boolean;
  locale: Locale;
  createdBy: string;
  createdAt: string;
}

export function WebhookEndpointCard({ endpoint, deliveries }: { endpoint: Endpoint; deliveries: Delivery[] }) {
  const router = useRouter();
  const t = useTranslations("admin.webhooks");
  const common = useTranslations("admin");
  const errorText = useErrorText();
  const timestamp = useTimestamp();
  const describe = (attempt: Attempt) =>
    t("attempt", {
      answer: attempt.responseCode === null ? t("noAnswer") : `HTTP ${attempt.responseCode}`,
      error: attempt.error && !attempt.ok ? ` (${attempt.error})` : "",
      ms: attempt.durationMs,
    });
  const [message, setMessage] = useState<string | null>(null);

  async function toggle() {
    const result = await updateWebhook({ id: endpoint.id, enabled: !endpoint.enabled });
    setMessage(result.ok ? null : errorText(result.error));
    router.refresh();
  }
  async function setLocale(locale: string) {
    const result = await updateWebhook({ id: endpoint.id, locale });
    setMessage(result.ok ? t("languageSaved", { language: LOCALE_NAMES[result.data.locale] }) : errorText(result.error));
    router.refresh();
  }
  async function retry(deliveryId: string) {
    const result = await retryWebhookDelivery({ endpointId: endpoint.id, deliveryId });
    setMessage(result.ok ? t("retrySent") : errorText(result.error));
    router.refresh();
  }

  return (
    <section aria-label={t("endpoint", { url: endpoint.url })} className="rounded-lg border border-neutral-200 bg-white p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="break-all font-mono text-sm font-semibold">{endpoint.url}</h2>
          <p className="mt-1 text-xs text-neutral-600">
            {endpoint.slack ? `${SLACK} · ` : ""}
            {t.rich("addedBy", {
              events: endpoint.eventTypes.join(", "),
              by: endpoint.createdBy,
              time: () => <time dateTime={endpoint.createdAt}>{timestamp(endpoint.createdAt)}</time>,
            })}
          </p>
        </div>
        <div className="flex items-center gap-2">
          {endpoint.slack ? (
            <select
              aria-label={t("languageOf", { url: endpoint.url })}
              value={endpoint.locale}
              onChange={(event) => void setLocale(event.target.value)}
              className="h-8 rounded-md border border-neutral-300 bg-white px-2 text-sm"
            >
              <LocaleOptions />
            </select>
          ) : null}
          <Badge>{t("enabled", { enabled: endpoint.enabled ? "yes" : "no" })}</Badge>
          <Button variant="outline" size="sm" onClick={() => void toggle()}>
            {endpoint.enabled ? t("disable") : t("enable")}
          </Button>
        </div>
      </div>
      <div role="status" aria-live="polite">
        {message ? <Alert>{message}</Alert> : null}
      </div>
      <Table>
        <TableCaption>{t("deliveries", { url: endpoint.url })}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>{t("event")}</TableHead>
            <TableHead>{t("state")}</TableHead>
            <TableHead>{t("attempts")}</TableHead>
            <TableHead>{t("lastAnswer")}</TableHead>
            <TableHead>{t("created")}</TableHead>
            <TableHead>
              <span className="sr-only">{common("actions")}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {deliveries.map((delivery) => {
            const last = delivery.attemptLog.at(-1);
            return (
              <TableRow key={delivery.id} data-testid="webhook-delivery">
                <TableCell className="font-mono text-xs" title={delivery.eventId}>
                  {delivery.eventType}
                </TableCell>
                <TableCell>
                  {delivery.state === "pending" && delivery.attempts > 0
                    ? t("retrying", { time: timestamp(delivery.nextAttemptAt) })
                    : t("deliveryState", { state: delivery.state })}
                </TableCell>
                <TableCell>{delivery.attempts}</TableCell>
                <TableCell className="text-xs" title={delivery.attemptLog.map(describe).join("\n")}>
                  {last ? describe(last) : "—"}
                </TableCell>
                <TableCell className="text-xs">
                  <time dateTime={delivery.createdAt}>{timestamp(delivery.createdAt)}</time>
                </TableCell>
                <TableCell>
                  <Button variant="outline" size="sm" onClick={() => void retry(delivery.id)}>
                    {t("retry")}
                  </Button>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </section>
  );
}

/** The product's name, the same in every language. */
const SLACK = "Slack";
