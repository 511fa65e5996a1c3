/**
 * Webhook endpoints as admins manage them: at /admin/webhooks (the server actions) and over
 * /api/admin/webhooks (the JSON API), through these same operations.
 */
import { z } from "zod";
import { AppError } from "../errors.ts";
import { EVENT_TYPES } from "../events/types.ts";
import { textCheck } from "../ids.ts";
import { idTextProblem } from "../safe-text.ts";
import { ENDPOINT_URL_MAX_LENGTH } from "../webhooks/address.ts";
import { LOCALES } from "../i18n/locales.ts";
import { addEndpoint, deliveryExists, endpointExists, listDeliveries, listEndpoints, updateEndpoint } from "../webhooks/endpoints.ts";
import { retryDelivery } from "../webhooks/worker.ts";
import { operation } from "./operation.ts";

/** The language of an endpoint's Slack messages. */
const locale = z.enum(LOCALES, { error: `locale must be one of ${LOCALES.join(", ")}` });

const endpointId = z.string({ error: "id must be text" }).uuid({ error: "id is not a webhook endpoint id (a UUID)" });

export const listWebhooksOperation = operation({
  name: "listWebhooks",
  permission: "manageWebhooks",
  input: z.object({}).strict(),
  // listEndpoints never reads out a secret: it is shown once, when the endpoint is added.
  run: () => listEndpoints(),
});

export const listWebhookDeliveriesOperation = operation({
  name: "listWebhookDeliveries",
  permission: "manageWebhooks",
  input: z.object({ id: endpointId }).strict(),
  run: async ({ id }) => {
    if (!(await endpointExists(id))) throw notFound(id);
    return listDeliveries(id);
  },
});

/** Adds an enabled endpoint; its signing secret is in the answer, and nowhere else ever again. */
export const createWebhookOperation = operation({
  name: "createWebhook",
  permission: "manageWebhooks",
  input: z
    .object({
      url: z
        .string({ error: "url must be text" })
        .trim()
        .min(1, "url is required")
        .max(ENDPOINT_URL_MAX_LENGTH, `url is longer than ${ENDPOINT_URL_MAX_LENGTH} characters`)
        .superRefine(textCheck("url", idTextProblem)),
      eventTypes: z.array(z.enum(EVENT_TYPES)).min(1, "Choose at least one event."),
      slack: z.boolean({ error: "slack must be true or false" }),
      /** The language of its Slack messages; left out: English. */
      locale: locale.optional(),
    })
    .strict(),
  run: ({ url, eventTypes, slack, locale }, { actor }) => addEndpoint({ url, eventTypes, slack, locale, createdBy: actor.email }),
});

/**
 * Enables or disables an endpoint (a disabled one is sent nothing and queued nothing until enabled
 * again), or sets the language of its Slack messages: the next message is in it.
 */
export const updateWebhookOperation = operation({
  name: "updateWebhook",
  permission: "manageWebhooks",
  input: z
    .object({ id: endpointId, enabled: z.boolean({ error: "enabled must be true or false" }).optional(), locale: locale.optional() })
    .strict()
    .refine((input) => input.enabled !== undefined || input.locale !== undefined, { message: "Send enabled, locale or both." }),
  run: async ({ id, enabled, locale }) => {
    const updated = await updateEndpoint(id, { enabled, locale });
    if (!updated) throw notFound(id);
    return updated;
  },
});

/** The log's Retry: the delivery is sent again on the worker's next round (within a second). */
export const retryWebhookDeliveryOperation = operation({
  name: "retryWebhookDelivery",
  permission: "manageWebhooks",
  input: z
    .object({
      endpointId,
      deliveryId: z.string({ error: "deliveryId must be text" }).uuid({ error: "deliveryId is not a delivery id (a UUID)" }),
    })
    .strict(),
  run: async ({ endpointId, deliveryId }) => {
    if (await retryDelivery(deliveryId, undefined, { endpointId })) return { endpointId, deliveryId };
    if (!(await deliveryExists(endpointId, deliveryId)))
      throw new AppError("webhook_not_found", `No delivery "${deliveryId}" of webhook endpoint "${endpointId}".`);
    throw new AppError("invalid_input", "This delivery is being sent right now: try again in a moment.");
  },
});

function notFound(id: string): AppError {
  return new AppError("webhook_not_found", `No webhook endpoint with id "${id}".`);
}
