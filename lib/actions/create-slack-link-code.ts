"use server";

import { z } from "zod";
import { createLinkCode } from "../slack/links.ts";
import { defineAction } from "./define-action.ts";

/** "Link Slack" on /profile: a one-time code to send to the Slack app as `/approvals link <code>`. */
export const createSlackLinkCode = defineAction(
  "createSlackLinkCode",
  { permission: "decide", input: z.object({}).strict() },
  async (_input, { actor }) => {
    const { code, expiresAt } = await createLinkCode(actor.id);
    return { code, expiresAt: expiresAt.toISOString() };
  },
);
