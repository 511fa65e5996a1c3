/**
 * The events outbox: what the console announces to the outside (webhooks and email). An event is
 * written in the same transaction as the change that causes it, together with one pending delivery
 * per enabled endpoint that wants its type and one queued email per user who asked for it
 * (lib/notifications/queue.ts), so a server dying between the change and the announcement loses
 * nothing: the workers (lib/webhooks/worker.ts, lib/notifications/worker.ts) send whatever is
 * pending, at least once, always under the event's stable id. `emitEvent` is the one way in.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../db/client.ts";
import { queueEmailNotifications, type NotificationWriter } from "../notifications/queue.ts";
import { EVENT_TYPES, isEventType, type EventType } from "./types.ts";

export { EVENT_TYPES, isEventType, type EventType };

/** What receivers get: the Standard Webhooks payload shape (`type`, `timestamp`, `data`). */
export interface EventPayload<Data = Record<string, unknown>> {
  type: EventType;
  timestamp: string;
  data: Data;
}

/** A transaction client (or the client itself): whatever holds the change the event announces. */
export type EventWriter = Pick<Db, "outboxEvent" | "webhookEndpoint" | "webhookDelivery"> & NotificationWriter;

/** Records `type` with `data`, queues it for every enabled endpoint subscribed to it and every user to email; returns the event id. */
export async function emitEvent(tx: EventWriter, type: EventType, data: Record<string, unknown>, now: Date = new Date()): Promise<string> {
  const id = `evt_${randomUUID().replaceAll("-", "")}`;
  const payload: EventPayload = { type, timestamp: now.toISOString(), data };
  await tx.outboxEvent.create({ data: { id, type, payload: JSON.stringify(payload), createdAt: now } });
  const endpoints = await tx.webhookEndpoint.findMany({ where: { enabled: true }, select: { id: true, eventTypes: true } });
  const subscribed = endpoints.filter((endpoint) => subscribedTypes(endpoint.eventTypes).includes(type));
  if (subscribed.length > 0) {
    await tx.webhookDelivery.createMany({
      data: subscribed.map((endpoint) => ({
        id: randomUUID(),
        endpointId: endpoint.id,
        eventId: id,
        state: "pending",
        attempts: 0,
        nextAttemptAt: now,
        leaseUntil: null,
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  await queueEmailNotifications(tx, { id, type, data }, now);
  return id;
}

/** An endpoint's event types, stored as a JSON array; anything unreadable subscribes to nothing. */
export function subscribedTypes(stored: string): EventType[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((value): value is EventType => typeof value === "string" && isEventType(value)) : [];
  } catch {
    return [];
  }
}
