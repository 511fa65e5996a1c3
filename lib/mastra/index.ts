import type { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { databaseUrlFromEnv } from "../db/client.ts";
import type { MastraCompositeStore } from "@mastra/core/storage";
import { createMastraStorage } from "../store/index.ts";
import { createAgents, createWorkflows } from "./agents.ts";
import { processCache } from "../process-cache.ts";

export type ConsoleMastra = Mastra<ReturnType<typeof createAgents>, ReturnType<typeof createWorkflows>>;

/**
 * A Mastra instance with the console's agents and workflows on the snapshot store at `databaseUrl`
 * (on `storage` when given: instances of one process share their store and its connections).
 */
export async function createConsoleMastra(
  databaseUrl: string = databaseUrlFromEnv(),
  storage?: MastraCompositeStore | Promise<MastraCompositeStore>,
): Promise<ConsoleMastra> {
  return new Mastra({
    agents: createAgents({ databaseUrl }),
    workflows: createWorkflows({ databaseUrl }),
    storage: await (storage ?? createMastraStorage(databaseUrl)),
    logger: false,
  });
}

const storages = processCache("mastra-storage", createMastraStorage);
const instances = processCache("mastra", (databaseUrl) => createConsoleMastra(databaseUrl, storages(databaseUrl)));

/** The process-wide Mastra for `databaseUrl` (default: DATABASE_URL), created on first use. */
export function getMastra(databaseUrl: string = databaseUrlFromEnv()): Promise<ConsoleMastra> {
  return instances(databaseUrl);
}

const agentInstances = processCache("mastra-agent", (key) => {
  const databaseUrl = key.slice(0, key.indexOf("\n"));
  return createConsoleMastra(databaseUrl, storages(databaseUrl));
});

/**
 * The instance that continues agent `agentId`'s runs: one per agent served and process, on the
 * process's one store. Mastra remembers per instance which run each memory thread is busy with, and a
 * run an approval left waiting again keeps its thread for half an hour (MASTRA_SUSPENDED_RUN_TTL_MS)
 * unless it is continued there: another agent's run on that thread waits for it before it starts,
 * however long that takes. The console continues runs from the store, where each waits on its own,
 * so one agent's waiting run must not hold up the decision on another's. An agent's own runs still
 * take turns on a thread while one of them is running (Mastra lets them past one that waits).
 * Undefined for an agent this console does not serve (`getMastra` knows them): an unknown id builds nothing.
 */
export async function getAgentMastra(agentId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<ConsoleMastra | undefined> {
  if (!findAgentById(await getMastra(databaseUrl), agentId)) return undefined;
  return agentInstances(`${databaseUrl}\n${agentId}`);
}

/** The agent whose `id` (as recorded in a run's snapshot) is `agentId`, or undefined. */
export function findAgentById(mastra: Mastra, agentId: string): Agent | undefined {
  return Object.values(mastra.listAgents()).find((agent) => agent.id === agentId) as Agent | undefined;
}
