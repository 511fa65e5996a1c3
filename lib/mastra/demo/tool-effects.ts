/**
 * The demo tools' side effects, written to the console's database: what a payment system, mailer or
 * CRM would have done. Tools get a recorder bound to their Mastra instance's database.
 */
import { getDb } from "../../db/client.ts";

export interface ToolEffectInput {
  agentId: string;
  toolName: string;
  toolCallId: string;
  threadId?: string;
  resourceId?: string;
  input: unknown;
  output: unknown;
}

/** What the effect of a call is: this one, or the one an earlier execution of the same call made. */
export type EffectRecorder = (effect: ToolEffectInput) => Promise<{ repeated: boolean; output: unknown }>;

/** Records an effect once per tool call (unique toolCallId); a repeat returns the first one's output. */
export function effectRecorder(databaseUrl: string): EffectRecorder {
  return async (effect) => {
    const db = await getDb(databaseUrl);
    try {
      await create(db, effect);
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error;
      const first = await db.toolEffect.findUniqueOrThrow({ where: { toolCallId: effect.toolCallId } });
      return { repeated: true, output: JSON.parse(first.output) as unknown };
    }
    return { repeated: false, output: effect.output };
  };
}

async function create(db: Awaited<ReturnType<typeof getDb>>, effect: ToolEffectInput) {
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
}
