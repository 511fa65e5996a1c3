"use server";

import { z } from "zod";
import { idSchema } from "../ids.ts";
import { getRunConversation, type ConversationPage } from "../runs/conversation.ts";
import { recordContextOpened } from "../insights/record.ts";
import { defineAction } from "./define-action.ts";

/**
 * A page of the conversation behind a run's waiting call: read when a call opens (never part of the
 * queue page), once per run. Read-only, so support may call it too; nobody signed out.
 */
export const readConversation = defineAction(
  "readConversation",
  {
    permission: "read",
    input: z.object({ runId: idSchema("runId"), before: z.number().int().min(0).max(1_000_000).optional() }).strict(),
  },
  ({ runId, before }, { actor }): Promise<ConversationPage | null> =>
    recordContextOpened(runId, actor.email, () => getRunConversation(runId, { before })),
);
