"use server";

import { z } from "zod";
import { AppError } from "../errors.ts";
import { EVENT_TYPES } from "../events/types.ts";
import { textCheck } from "../ids.ts";
import { idTextProblem } from "../safe-text.ts";
import { checkEndpointUrl, ENDPOINT_URL_MAX_LENGTH } from "../webhooks/address.ts";
import { createEndpoint } from "../webhooks/endpoints.ts";
import { defineAction } from "./define-action.ts";

const newWebhookInput = z.object({
  url: z
    .string({ error: "url must be text" })
    .trim()
    .min(1, "url is required")
    .max(ENDPOINT_URL_MAX_LENGTH, `url is longer than ${ENDPOINT_URL_MAX_LENGTH} characters`)
    .superRefine(textCheck("url", idTextProblem)),
  eventTypes: z.array(z.enum(EVENT_TYPES)).min(1, "Choose at least one event."),
  slack: z.boolean(),
});

/** Adds an enabled endpoint; its signing secret is in the answer, and nowhere else ever again. */
export const createWebhook = defineAction(
  "createWebhook",
  { permission: "manageWebhooks", input: newWebhookInput },
  async ({ url, eventTypes, slack }, { actor }) => {
    const checked = await checkEndpointUrl(url);
    if (checked.problem !== null) throw new AppError("invalid_input", checked.problem);
    // The normalised URL the address check looked at, not the text as typed.
    return createEndpoint({ url: checked.url, eventTypes, slack, createdBy: actor.email });
  },
);
