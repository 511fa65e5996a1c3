"use server";

import { z } from "zod";
import { setEndpointEnabled } from "../webhooks/endpoints.ts";
import { defineAction } from "./define-action.ts";

/** A disabled endpoint is sent nothing and queued nothing until enabled again. */
export const setWebhookEnabled = defineAction(
  "setWebhookEnabled",
  { permission: "manageWebhooks", input: z.object({ id: z.string().uuid(), enabled: z.boolean() }) },
  async ({ id, enabled }) => ({ id, enabled, found: await setEndpointEnabled(id, enabled) }),
);
