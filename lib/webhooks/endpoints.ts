/** Webhook endpoints as admins manage them at /admin/webhooks, and their delivery log. */
import { randomBytes, randomUUID } from "node:crypto";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { subscribedTypes, type EventType } from "../events/outbox.ts";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../i18n/locales.ts";
import { checkEndpointUrl, normalizeEndpointUrl } from "./address.ts";

export interface NewEndpoint {
  url: string;
  eventTypes: EventType[];
  slack: boolean;
  /** The language of its Slack messages (default: English); a raw event has none. */
  locale?: Locale;
  createdBy: string;
}

/**
 * Creates an enabled endpoint; returns it with its signing secret, which is shown this once. The URL
 * is stored normalised, exactly as deliveries will read it, and refused (`invalid_input`) when it
 * cannot be one; whoever takes it from a person checks its address first (addEndpoint).
 */
export async function createEndpoint(input: NewEndpoint, databaseUrl: string = databaseUrlFromEnv()) {
  const { url, problem } = normalizeEndpointUrl(input.url);
  if (problem !== null) throw new AppError("invalid_input", problem);
  const db = await getDb(databaseUrl);
  // Standard Webhooks secrets: `whsec_` and base64 of 24 to 64 random bytes.
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const endpoint = await db.webhookEndpoint.create({
    data: {
      id: randomUUID(),
      url,
      eventTypes: JSON.stringify(input.eventTypes),
      enabled: true,
      slack: input.slack,
      locale: input.locale ?? DEFAULT_LOCALE,
      secret,
      createdBy: input.createdBy,
      createdAt: new Date(),
    },
  });
  return {
    id: endpoint.id,
    url,
    eventTypes: input.eventTypes,
    slack: input.slack,
    locale: endpointLocale(endpoint),
    enabled: true,
    secret,
  };
}

/**
 * An endpoint an admin adds (the page or the JSON API): its address is checked first (no private
 * addresses, lib/webhooks/address.ts), and the URL stored is the normalised one that check read.
 */
export async function addEndpoint(input: NewEndpoint, databaseUrl: string = databaseUrlFromEnv()) {
  const checked = await checkEndpointUrl(input.url);
  if (checked.problem !== null) throw new AppError("invalid_input", checked.problem);
  return createEndpoint({ ...input, url: checked.url }, databaseUrl);
}

export async function endpointExists(id: string, databaseUrl: string = databaseUrlFromEnv()): Promise<boolean> {
  return (await (await getDb(databaseUrl)).webhookEndpoint.count({ where: { id } })) === 1;
}

export async function deliveryExists(endpointId: string, deliveryId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<boolean> {
  return (await (await getDb(databaseUrl)).webhookDelivery.count({ where: { id: deliveryId, endpointId } })) === 1;
}

/** Enables or disables the endpoint, or sets its language; the endpoint as it is then, or null when there is none. */
export async function updateEndpoint(
  id: string,
  change: { enabled?: boolean; locale?: Locale },
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<{ id: string; enabled: boolean; locale: Locale } | null> {
  const db = await getDb(databaseUrl);
  const { count } = await db.webhookEndpoint.updateMany({ where: { id }, data: change });
  if (count !== 1) return null;
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id }, select: { id: true, enabled: true, locale: true } });
  return endpoint && { ...endpoint, locale: endpointLocale(endpoint) };
}

/** The endpoint's language as stored: a language of the console's, else (a value no check let in) English. */
export function endpointLocale(endpoint: { locale: string }): Locale {
  return isLocale(endpoint.locale) ? endpoint.locale : DEFAULT_LOCALE;
}

/** Deletes the endpoint with its deliveries and their attempts; the events stay in the outbox. */
export async function deleteEndpoint(id: string, databaseUrl: string = databaseUrlFromEnv()): Promise<void> {
  const db = await getDb(databaseUrl);
  await db.$transaction(async (tx) => {
    const deliveries = await tx.webhookDelivery.findMany({ where: { endpointId: id }, select: { id: true } });
    await tx.webhookAttempt.deleteMany({ where: { deliveryId: { in: deliveries.map((delivery) => delivery.id) } } });
    await tx.webhookDelivery.deleteMany({ where: { endpointId: id } });
    await tx.webhookEndpoint.deleteMany({ where: { id } });
  });
}

/**
 * The language of the console's Slack channels: the one every enabled Slack endpoint is set to, or
 * null when there is none or they differ (whoever asks then answers in English).
 */
export async function slackChannelsLocale(databaseUrl: string = databaseUrlFromEnv()): Promise<Locale | null> {
  const endpoints = await (
    await getDb(databaseUrl)
  ).webhookEndpoint.findMany({
    where: { slack: true, enabled: true },
    select: { locale: true },
    distinct: ["locale"],
    take: 2,
  });
  return endpoints.length === 1 ? endpointLocale(endpoints[0]!) : null;
}

/** Every endpoint, without its secret, newest first. */
export async function listEndpoints(databaseUrl: string = databaseUrlFromEnv()) {
  const endpoints = await (await getDb(databaseUrl)).webhookEndpoint.findMany({ orderBy: { createdAt: "desc" } });
  return endpoints.map(({ secret: _secret, eventTypes, ...endpoint }) => ({
    ...endpoint,
    locale: endpointLocale(endpoint),
    eventTypes: subscribedTypes(eventTypes),
  }));
}

export type ListedEndpoint = Awaited<ReturnType<typeof listEndpoints>>[number];

/** An endpoint's latest deliveries, each with its event's type and every attempt, newest first. */
export async function listDeliveries(endpointId: string, databaseUrl: string = databaseUrlFromEnv(), take = 50) {
  const db = await getDb(databaseUrl);
  const deliveries = await db.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: "desc" }, take });
  const ids = deliveries.map((delivery) => delivery.id);
  const [events, attempts] = await Promise.all([
    db.outboxEvent.findMany({ where: { id: { in: deliveries.map((delivery) => delivery.eventId) } }, select: { id: true, type: true } }),
    db.webhookAttempt.findMany({ where: { deliveryId: { in: ids } }, orderBy: { at: "asc" } }),
  ]);
  const typeOf = new Map(events.map((event) => [event.id, event.type]));
  return deliveries.map((delivery) => ({
    ...delivery,
    eventType: typeOf.get(delivery.eventId) ?? "unknown",
    attemptLog: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
  }));
}

export type ListedDelivery = Awaited<ReturnType<typeof listDeliveries>>[number];
