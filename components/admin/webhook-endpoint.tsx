"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { retryWebhookDelivery } from "@/lib/actions/retry-webhook-delivery";
import { setWebhookEnabled } from "@/lib/actions/set-webhook-enabled";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
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
  createdBy: string;
  createdAt: string;
}

export function WebhookEndpointCard({ endpoint, deliveries }: { endpoint: Endpoint; deliveries: Delivery[] }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);

  async function toggle() {
    const result = await setWebhookEnabled({ id: endpoint.id, enabled: !endpoint.enabled });
    setMessage(result.ok ? null : result.error.message);
    router.refresh();
  }
  async function retry(deliveryId: string) {
    const result = await retryWebhookDelivery({ endpointId: endpoint.id, deliveryId });
    setMessage(result.ok ? "Sent again on the next round (within a second or so)." : result.error.message);
    router.refresh();
  }

  return (
    <section aria-label={`Webhook ${endpoint.url}`} className="rounded-lg border border-neutral-200 bg-white p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="break-all font-mono text-sm font-semibold">{endpoint.url}</h2>
          <p className="mt-1 text-xs text-neutral-600">
            {endpoint.slack ? "Slack · " : ""}
            {endpoint.eventTypes.join(", ")} · added by {endpoint.createdBy} at {endpoint.createdAt}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge>{endpoint.enabled ? "Enabled" : "Disabled"}</Badge>
          <Button variant="outline" size="sm" onClick={() => void toggle()}>
            {endpoint.enabled ? "Disable" : "Enable"}
          </Button>
        </div>
      </div>
      <div role="status" aria-live="polite">
        {message ? <Alert>{message}</Alert> : null}
      </div>
      <Table>
        <TableCaption>Deliveries to {endpoint.url}, newest first</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Event</TableHead>
            <TableHead>State</TableHead>
            <TableHead>Attempts</TableHead>
            <TableHead>Last answer</TableHead>
            <TableHead>Created</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
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
                  {delivery.state === "pending" && delivery.attempts > 0 ? `retrying at ${delivery.nextAttemptAt}` : delivery.state}
                </TableCell>
                <TableCell>{delivery.attempts}</TableCell>
                <TableCell className="text-xs" title={delivery.attemptLog.map(describe).join("\n")}>
                  {last ? describe(last) : "—"}
                </TableCell>
                <TableCell className="text-xs">{delivery.createdAt}</TableCell>
                <TableCell>
                  <Button variant="outline" size="sm" onClick={() => void retry(delivery.id)}>
                    Retry
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

function describe(attempt: Attempt): string {
  const answer = attempt.responseCode === null ? "no answer" : `HTTP ${attempt.responseCode}`;
  return `${answer}${attempt.error && !attempt.ok ? ` (${attempt.error})` : ""}, ${attempt.durationMs} ms`;
}
