"use server";

import { z } from "zod";
import { AppError } from "../errors.ts";
import { EVENT_TYPES } from "../events/types.ts";
import { checkEndpointUrl } from "../webhooks/address.ts";
import { createEndpoint } from "../webhooks/endpoints.ts";
import { defineAction } from "./define-action.ts";

const newWebhookInput = z.object({
  url: z.string().trim().min(1).max(2048),
  eventTypes: z.array(z.enum(EVENT_TYPES)).min(1, "Choose at least one event."),
  slack: z.boolean(),
});

/** Adds an enabled endpoint; its signing secret is in the answer, and nowhere else ever again. */
export const createWebhook = defineAction(
  "createWebhook",
  { permission: "manageWebhooks", input: newWebhookInput },
  async ({ url, eventTypes, slack }, { actor }) => {
    const problem = await checkEndpointUrl(url);
    if (problem) throw new AppError("invalid_input", problem);
    return createEndpoint({ url, eventTypes, slack, createdBy: actor.email });
  },
);
