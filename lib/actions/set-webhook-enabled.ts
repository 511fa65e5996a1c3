"use server";

import { actionOf } from "./define-action.ts";
import { setWebhookEnabledOperation } from "./webhook-operations.ts";

export const setWebhookEnabled = actionOf(setWebhookEnabledOperation);
