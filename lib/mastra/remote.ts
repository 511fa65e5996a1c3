/**
 * Remote mode: the console hosts no agents and carries decisions out through a team's own Mastra
 * server (MASTRA_SERVER_URL), which writes its runs to the same database. The one place that reads
 * that configuration, and the one client the console talks to that server with.
 *
 *  - MASTRA_SERVER_URL: the server's base URL (Mastra's routes under `/api`), e.g. http://mastra:4111
 *  - MASTRA_SERVER_HEADERS: optional JSON object of headers sent with every request
 *  - MASTRA_SERVER_TOKEN: optional bearer token (`Authorization: Bearer …`, wins over the headers')
 *  - MASTRA_SERVER_TIMEOUT_MS: how long one decision may take, from sending to the end of the agent's
 *    answer (default 120 s: a real model answers after the tool ran)
 *
 * `@mastra/client-js` nests its own `@mastra/core` (1.68.0 beside our 1.71.0): nothing from it
 * leaves this module and lib/decisions/remote-runs.ts but plain JSON and `Response`s.
 */
import { MastraClient } from "@mastra/client-js";
import { z } from "zod";
import { numericSetting } from "../numeric-settings.mjs";
import { processCache } from "../process-cache.ts";

const HEADERS_SHAPE = 'MASTRA_SERVER_HEADERS must be a JSON object of strings, e.g. {"x-api-key":"…"}';

const remoteSettings = z.object({
  MASTRA_SERVER_URL: z.url({ protocol: /^https?$/, error: "MASTRA_SERVER_URL must be an http(s) URL" }),
  MASTRA_SERVER_HEADERS: z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined || text.trim() === "") return {};
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        context.addIssue({ code: "custom", message: `MASTRA_SERVER_HEADERS is not valid JSON (${(error as Error).message})` });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string(), z.string({ error: HEADERS_SHAPE }), { error: HEADERS_SHAPE })),
  MASTRA_SERVER_TOKEN: z.string().min(1).optional(),
  // The console's one reading of numeric settings (lib/numeric-settings.mjs), worded as at start.
  MASTRA_SERVER_TIMEOUT_MS: z
    .string()
    .optional()
    .transform((text, context) => {
      try {
        return numericSetting("MASTRA_SERVER_TIMEOUT_MS", { MASTRA_SERVER_TIMEOUT_MS: text });
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message.replace(/\.$/, "") });
        return z.NEVER;
      }
    }),
});

export interface RemoteServer {
  /** Base URL without a trailing slash, as reviewers are told about it. */
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export class RemoteConfigurationError extends Error {}

/**
 * The Mastra server decisions go to, or undefined in embedded mode (MASTRA_SERVER_URL unset).
 * Throws a RemoteConfigurationError naming every problem (the console refuses to start with it).
 */
export function remoteServer(env: Record<string, string | undefined> = process.env): RemoteServer | undefined {
  if (!env.MASTRA_SERVER_URL) return undefined;
  const parsed = remoteSettings.safeParse(env);
  if (!parsed.success) {
    throw new RemoteConfigurationError(`Remote mode is misconfigured: ${parsed.error.issues.map((issue) => issue.message).join("; ")}.`);
  }
  const { MASTRA_SERVER_URL, MASTRA_SERVER_HEADERS, MASTRA_SERVER_TOKEN, MASTRA_SERVER_TIMEOUT_MS } = parsed.data;
  return {
    url: MASTRA_SERVER_URL.replace(/\/+$/, ""),
    headers: { ...MASTRA_SERVER_HEADERS, ...(MASTRA_SERVER_TOKEN ? { Authorization: `Bearer ${MASTRA_SERVER_TOKEN}` } : {}) },
    timeoutMs: MASTRA_SERVER_TIMEOUT_MS,
  };
}

/**
 * A client without retries: a decision is sent once (a retried approval could run its tool twice).
 * `abortSignal` bounds everything the client sends.
 */
export function remoteClient(server: RemoteServer, abortSignal?: AbortSignal): MastraClient {
  return new MastraClient({ baseUrl: server.url, headers: server.headers, retries: 0, abortSignal });
}

/** An agent as the Mastra server lists it (GET /api/agents). */
export interface RemoteAgent {
  id: string;
  name: string;
  description?: string;
}

/** How long a successful agent listing is reused: every page shows agent names. */
const AGENTS_FRESH_MS = 5_000;
/** A listing is small: a server that takes longer is as good as unreachable for a page. */
const LISTING_TIMEOUT_MS = 10_000;
const agentLists = processCache("remote-agents", async () => ({
  at: 0,
  agents: [] as RemoteAgent[],
  pending: undefined as Promise<RemoteAgent[]> | undefined,
}));

/**
 * The agents the server serves, by their ids (what a run's snapshot records as its owner). Asked at
 * most every few seconds; a failure is thrown (and not remembered): the caller decides what it means.
 */
export async function listRemoteAgents(server: RemoteServer): Promise<RemoteAgent[]> {
  const cached = await agentLists(server.url);
  if (Date.now() - cached.at < AGENTS_FRESH_MS) return cached.agents;
  cached.pending ??= fetchAgents(server).finally(() => (cached.pending = undefined));
  const agents = await cached.pending;
  Object.assign(cached, { at: Date.now(), agents });
  return agents;
}

async function fetchAgents(server: RemoteServer): Promise<RemoteAgent[]> {
  const listed: Record<string, { id?: string; name?: string; description?: string }> = await remoteClient(
    server,
    AbortSignal.timeout(LISTING_TIMEOUT_MS),
  ).listAgents();
  return Object.entries(listed).map(([key, agent]) => ({
    id: agent.id ?? key,
    name: agent.name ?? agent.id ?? key,
    description: agent.description || undefined,
  }));
}
