"use server";

import { z } from "zod";
import { AppError } from "../errors.ts";
import { retryDelivery } from "../webhooks/worker.ts";
import { defineAction } from "./define-action.ts";

/** The log's Retry: the delivery is sent again on the worker's next round (within a second). */
export const retryWebhookDelivery = defineAction(
  "retryWebhookDelivery",
  { permission: "manageWebhooks", input: z.object({ deliveryId: z.string().uuid() }) },
  async ({ deliveryId }) => {
    if (!(await retryDelivery(deliveryId)))
      throw new AppError("invalid_input", "This delivery is being sent right now, or no longer exists.");
    return { deliveryId };
  },
);
