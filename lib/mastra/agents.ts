/**
 * The agents and workflows this console serves. Bring your own: return them here (a fresh set per
 * call — a Mastra instance takes ownership of what is registered with it). Keys are how Mastra names
 * them in code; the console finds a run's owner by the agent's (or workflow's) `id`, which the run's
 * snapshot records.
 */
import { createDemoAgents } from "./demo/agents.ts";
import { effectRecorder } from "./demo/tool-effects.ts";
import { createDemoWorkflows } from "./demo/workflows.ts";

export function createAgents({ databaseUrl }: { databaseUrl: string }) {
  return createDemoAgents({ recordEffect: effectRecorder(databaseUrl) });
}

export function createWorkflows({ databaseUrl }: { databaseUrl: string }) {
  return createDemoWorkflows({ recordEffect: effectRecorder(databaseUrl) });
}
