import type { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { databaseUrlFromEnv } from "../db/client.ts";
import { createMastraStorage } from "../store/index.ts";
import { createAgents, createWorkflows } from "./agents.ts";
import { processCache } from "../process-cache.ts";

export type ConsoleMastra = Mastra<ReturnType<typeof createAgents>, ReturnType<typeof createWorkflows>>;

/** A Mastra instance with the console's agents and workflows on the snapshot store at `databaseUrl`. */
export async function createConsoleMastra(databaseUrl: string = databaseUrlFromEnv()): Promise<ConsoleMastra> {
  return new Mastra({
    agents: createAgents({ databaseUrl }),
    workflows: createWorkflows({ databaseUrl }),
    storage: await createMastraStorage(databaseUrl),
    logger: false,
  });
}

const instances = processCache("mastra", createConsoleMastra);

/** The process-wide Mastra for `databaseUrl` (default: DATABASE_URL), created on first use. */
export function getMastra(databaseUrl: string = databaseUrlFromEnv()): Promise<ConsoleMastra> {
  return instances(databaseUrl);
}

/** The agent whose `id` (as recorded in a run's snapshot) is `agentId`, or undefined. */
export function findAgentById(mastra: Mastra, agentId: string): Agent | undefined {
  return Object.values(mastra.listAgents()).find((agent) => agent.id === agentId) as Agent | undefined;
}
