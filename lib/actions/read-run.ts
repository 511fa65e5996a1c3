"use server";

import { z } from "zod";
import { idSchema } from "../ids.ts";
import type { RunDetailDto } from "../queue/dto.ts";
import { getRunDetail } from "../queue/views.ts";
import { recordRunViews } from "../insights/record.ts";
import { defineAction } from "./define-action.ts";

/**
 * One run's pending calls with their arguments, suspend payloads and resume schemas: what a row of
 * the review queue shows once opened (the listing carries none of them). Null when the run no
 * longer waits. Read-only, so support may call it too. `countAsOpened: false` is for a page that
 * already shows the run and reads where it stands after a live change (components/run-detail/
 * run-live.tsx): nobody opened anything, so the insights count no view.
 */
export const readRun = defineAction(
  "readRun",
  { permission: "read", input: z.object({ runId: idSchema("runId"), countAsOpened: z.boolean().default(true) }).strict() },
  async ({ runId, countAsOpened }, { actor }): Promise<RunDetailDto | null> => {
    const run = await getRunDetail(runId);
    // Opened: the insights count who looked at a call before deciding it (lib/insights).
    if (run && countAsOpened)
      await recordRunViews(
        runId,
        run.toolCalls.flatMap((call) => (call.toolCallId ? [call.toolCallId] : [])),
        actor.email,
        false,
      );
    return run;
  },
);
