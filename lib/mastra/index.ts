import type { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { databaseUrlFromEnv } from "../db/client.ts";
import { createMastraStorage } from "../store/index.ts";
import { createAgents } from "./agents.ts";

export type ConsoleMastra = Mastra<ReturnType<typeof createAgents>>;

/** A Mastra instance with the console's agents on the snapshot store at `databaseUrl`. */
export async function createConsoleMastra(databaseUrl: string = databaseUrlFromEnv()): Promise<ConsoleMastra> {
  return new Mastra({
    agents: createAgents({ databaseUrl }),
    storage: await createMastraStorage(databaseUrl),
    logger: false,
  });
}

const instances = ((globalThis as { __approvalsConsoleMastra?: Map<string, Promise<ConsoleMastra>> })
  .__approvalsConsoleMastra ??= new Map());

/** The process-wide Mastra for `databaseUrl` (default: DATABASE_URL), created on first use. */
export function getMastra(databaseUrl: string = databaseUrlFromEnv()): Promise<ConsoleMastra> {
  let mastra = instances.get(databaseUrl);
  if (!mastra) {
    mastra = createConsoleMastra(databaseUrl);
    instances.set(databaseUrl, mastra);
    mastra.catch(() => instances.delete(databaseUrl));
  }
  return mastra;
}

/** The agent whose `id` (as recorded in a run's snapshot) is `agentId`, or undefined. */
export function findAgentById(mastra: Mastra, agentId: string): Agent | undefined {
  return Object.values(mastra.listAgents()).find((agent) => agent.id === agentId) as Agent | undefined;
}
