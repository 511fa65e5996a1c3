/** What /api/admin/webhooks* answer, as zod schemas for the OpenAPI document (lib/openapi/routes-admin.ts). */
import { z } from "zod";
import { EVENT_TYPES } from "../events/types.ts";
import { LOCALES } from "../i18n/locales.ts";

const endpointFields = {
  id: z.string(),
  url: z.string().meta({ description: "As stored: the normalised URL the address check read." }),
  eventTypes: z.array(z.enum(EVENT_TYPES)),
  slack: z.boolean(),
  locale: z.enum(LOCALES),
  enabled: z.boolean(),
};

export const webhookEndpointSchema = z
  .object({ ...endpointFields, createdBy: z.string(), createdAt: z.string().meta({ format: "date-time" }) })
  .meta({ id: "WebhookEndpoint", description: "An endpoint, never its secret." });

export const createdWebhookSchema = z
  .object({ ...endpointFields, secret: z.string().meta({ description: "The whsec_ signing secret: shown this once, never again." }) })
  .meta({ id: "CreatedWebhook" });

export const updatedWebhookSchema = z.object({ id: z.string(), enabled: z.boolean(), locale: z.enum(LOCALES) });

const attemptSchema = z.object({
  id: z.number().int(),
  deliveryId: z.string(),
  at: z.string(),
  ok: z.boolean(),
  responseCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    state: z.string().meta({ description: "pending, delivered or failed." }),
    attempts: z.number().int(),
    nextAttemptAt: z.string(),
    leaseUntil: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    attemptLog: z.array(attemptSchema),
  })
  .meta({ id: "WebhookDelivery" });

export const retriedDeliverySchema = z.object({ endpointId: z.string(), deliveryId: z.string() });
