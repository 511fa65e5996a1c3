"use server";

import { actionOf } from "./define-action.ts";
import { createWebhookOperation } from "./webhook-operations.ts";

export const createWebhook = actionOf(createWebhookOperation);
