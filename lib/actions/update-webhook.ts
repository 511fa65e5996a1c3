"use server";

import { actionOf } from "./define-action.ts";
import { updateWebhookOperation } from "./webhook-operations.ts";

export const updateWebhook = actionOf(updateWebhookOperation);
