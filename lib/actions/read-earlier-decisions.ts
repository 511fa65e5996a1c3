"use server";

import { z } from "zod";
import { earlierDecisions } from "../decisions/earlier.ts";
import { idSchema } from "../ids.ts";
import type { EarlierDecisions } from "../runs/conversation-dto.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import { recordRunViews } from "../insights/record.ts";
import { defineAction } from "./define-action.ts";

/**
 * "Earlier decisions" for a waiting call: the same customer's calls of its tool in the last 30 days
 * and the calls decided earlier in its thread. Null when the run no longer waits on it. Read-only.
 */
export const readEarlierDecisions = defineAction(
  "readEarlierDecisions",
  { permission: "read", input: z.object({ runId: idSchema("runId"), toolCallId: idSchema("toolCallId") }).strict() },
  async ({ runId, toolCallId }, { actor }): Promise<EarlierDecisions | null> => {
    const run = await findSuspendedRun(runId);
    const call = run?.toolCalls.find((candidate) => candidate.toolCallId === toolCallId);
    if (!run || !call) return null;
    await recordRunViews(runId, [toolCallId], actor.email, true);
    return earlierDecisions({
      runId,
      toolCallId,
      toolName: call.toolName ?? null,
      resourceId: run.resourceId ?? null,
      threadId: run.threadId ?? null,
    });
  },
);
