"use server";

import { z } from "zod";
import { getEarlierInThread } from "../decisions/earlier-in-thread.ts";
import { idSchema } from "../ids.ts";
import type { EarlierInThreadPage } from "../runs/conversation-dto.ts";
import { recordContextOpened } from "../insights/record.ts";
import { defineAction } from "./define-action.ts";

/**
 * A page of "Earlier in this thread" for a waiting call: its memory thread's messages from before
 * the run, loaded on demand (never with the queue page). `before`: the previous page's cursor.
 * Read-only, so support may call it too; nobody signed out.
 */
export const readEarlierInThread = defineAction(
  "readEarlierInThread",
  {
    permission: "read",
    input: z
      .object({
        runId: idSchema("runId"),
        before: z.iso.datetime({ error: "before must be an ISO time, as the previous page gave it" }).optional(),
      })
      .strict(),
  },
  ({ runId, before }, { actor }): Promise<EarlierInThreadPage> =>
    recordContextOpened(runId, actor.email, () => getEarlierInThread(runId, { before })),
);
