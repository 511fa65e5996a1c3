"use server";

import { z } from "zod";
import { toolInfoOf } from "../decisions/tool-info.ts";
import { databaseUrlFromEnv } from "../db/client.ts";
import { idSchema } from "../ids.ts";
import type { ToolInfo } from "../runs/conversation-dto.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import { defineAction } from "./define-action.ts";

/**
 * "About this tool" for a waiting call: its description and arguments, from the registered tool or
 * the team's Mastra server. Null when the run no longer waits on it or nothing describes the tool.
 * Read-only, so support may call it too.
 */
export const readToolInfo = defineAction(
  "readToolInfo",
  { permission: "read", input: z.object({ runId: idSchema("runId"), toolCallId: idSchema("toolCallId") }).strict() },
  async ({ runId, toolCallId }): Promise<ToolInfo | null> => {
    const databaseUrl = databaseUrlFromEnv();
    const run = await findSuspendedRun(runId, databaseUrl);
    const call = run?.toolCalls.find((candidate) => candidate.toolCallId === toolCallId);
    return run && call ? toolInfoOf(run.agentId, call, databaseUrl) : null;
  },
);
