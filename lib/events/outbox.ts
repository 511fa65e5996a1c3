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
import { sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { StatementTransaction } from "@agent-approvals/mastra-store";
import { isEmailedEventType, queueEmailNotifications, type NotificationWriter } from "../notifications/queue.ts";
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
  const event = outboxRow(type, data, now);
  await tx.outboxEvent.create({ data: event });
  const endpoints = await tx.webhookEndpoint.findMany({ where: { enabled: true }, select: { id: true, eventTypes: true } });
  const deliveries = deliveryRows(endpoints, event.id, type, now);
  if (deliveries.length > 0) await tx.webhookDelivery.createMany({ data: deliveries });
  await queueEmailNotifications(tx, { id: event.id, type, data }, now);
  return event.id;
}

/**
 * emitEvent in a transaction of raw statements (statementTransaction in @agent-approvals/mastra-store):
 * the same rows, for an event nobody is emailed about (a decision's `call.decided`, `call.expired`).
 */
export async function emitUnmailedEvent(
  tx: StatementTransaction,
  type: EventType,
  data: Record<string, unknown>,
  now: Date = new Date(),
): Promise<string> {
  if (isEmailedEventType(type)) throw new Error(`"${type}" is emailed: emit it with emitEvent, which queues its emails.`);
  const event = outboxRow(type, data, now);
  await tx.execute(
    sql`INSERT INTO outbox_events (id, type, payload, created_at) VALUES (${event.id}, ${event.type}, ${event.payload}, ${now})`,
  );
  const endpoints = await tx.query<{ id: string; eventTypes: string }>(
    sql`SELECT id, event_types AS "eventTypes" FROM webhook_endpoints WHERE enabled = ${true}`,
  );
  for (const row of deliveryRows(endpoints, event.id, type, now)) {
    await tx.execute(
      sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, lease_until, created_at, updated_at)
        VALUES (${row.id}, ${row.endpointId}, ${row.eventId}, ${row.state}, ${row.attempts}, ${row.nextAttemptAt}, ${null}, ${now}, ${now})`,
    );
  }
  return event.id;
}

/**
 * emitUnmailedEvent as two CTEs of one PostgreSQL statement (`announced`, `delivered`), written only
 * if `from` (`FROM moved`: the statement's change) yields a row: one round trip where the transaction
 * takes five. An endpoint's event types are the JSON array of known type names its form stores
 * (lib/webhooks), so it subscribes to `type` when it holds the quoted name, as subscribedTypes reads it.
 */
export function unmailedEventCtes(type: EventType, data: Record<string, unknown>, now: Date, from: Sql): Sql {
  if (isEmailedEventType(type)) throw new Error(`"${type}" is emailed: emit it with emitEvent, which queues its emails.`);
  const event = outboxRow(type, data, now);
  return sql`announced AS (
      INSERT INTO outbox_events (id, type, payload, created_at) SELECT ${event.id}, ${event.type}, ${event.payload}, ${now} ${from} RETURNING id
    ), delivered AS (
      INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, lease_until, created_at, updated_at)
      SELECT gen_random_uuid()::text, endpoint.id, announced.id, ${"pending"}, ${0}, ${now}, NULL, ${now}, ${now}
      FROM announced CROSS JOIN webhook_endpoints endpoint
      WHERE endpoint.enabled AND strpos(endpoint.event_types, ${JSON.stringify(type)}) > 0
    )`;
}

function outboxRow(type: EventType, data: Record<string, unknown>, now: Date) {
  const payload: EventPayload = { type, timestamp: now.toISOString(), data };
  return { id: `evt_${randomUUID().replaceAll("-", "")}`, type, payload: JSON.stringify(payload), createdAt: now };
}

/** One pending delivery of the event for every endpoint subscribed to its type. */
function deliveryRows(endpoints: Array<{ id: string; eventTypes: string }>, eventId: string, type: EventType, now: Date) {
  return endpoints
    .filter((endpoint) => subscribedTypes(endpoint.eventTypes).includes(type))
    .map((endpoint) => ({
      id: randomUUID(),
      endpointId: endpoint.id,
      eventId,
      state: "pending",
      attempts: 0,
      nextAttemptAt: now,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
    }));
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
