"use server";

import { actionOf } from "./define-action.ts";
import { retryWebhookDeliveryOperation } from "./webhook-operations.ts";

export const retryWebhookDelivery = actionOf(retryWebhookDeliveryOperation);
