/**
 * The demo tools' side effects, written to the console's database: what a payment system, mailer or
 * CRM would have done. Tools get a recorder bound to their Mastra instance's database.
 */
import { getDb } from "../db/client.ts";

export interface ToolEffectInput {
  agentId: string;
  toolName: string;
  toolCallId: string;
  threadId?: string;
  resourceId?: string;
  input: unknown;
  output: unknown;
}

export type EffectRecorder = (effect: ToolEffectInput) => Promise<void>;

export function effectRecorder(databaseUrl: string): EffectRecorder {
  return async (effect) => {
    const db = await getDb(databaseUrl);
    await db.toolEffect.create({
      data: {
        at: new Date(),
        agentId: effect.agentId,
        toolName: effect.toolName,
        toolCallId: effect.toolCallId,
        threadId: effect.threadId ?? null,
        resourceId: effect.resourceId ?? null,
        input: JSON.stringify(effect.input),
        output: JSON.stringify(effect.output),
      },
    });
  };
}
