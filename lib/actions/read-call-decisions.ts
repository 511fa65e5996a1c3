"use server";

import { z } from "zod";
import { findCurrentCallDecisions } from "../decisions/call-states.ts";
import type { PriorDecision } from "../decisions/types.ts";
import { idSchema } from "../ids.ts";
import { defineAction } from "./define-action.ts";

/**
 * Where each decided call of a run stands: who decided it, how, when, and whether it was carried
 * out. The run page reads it when its live stream says one of its calls was decided, so a reviewer
 * looking at a call sees a colleague's decision without reloading. Read-only, so support may call it.
 */
export const readCallDecisions = defineAction(
  "readCallDecisions",
  { permission: "read", input: z.object({ runId: idSchema("runId") }).strict() },
  async ({ runId }): Promise<Array<{ toolCallId: string; decision: PriorDecision }>> =>
    [...(await findCurrentCallDecisions(runId))].map(([toolCallId, decision]) => ({ toolCallId, decision })),
);
