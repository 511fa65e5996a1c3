/**
 * Child process that runs the real `agent.listSuspendedRuns()` of @mastra/core on Mastra's own stores
 * (LibSQLStore, PostgresStore), one call per message. The parent kills it when a call passes the
 * time cap, so a call that would take hours costs the cap and no more.
 *
 * in:  { id, store: "libsql" | "pg", url, agent, options }   (dates as ISO strings)
 * out: { id, ms, total, runs, rssMb } | { id, error }
 */
import { Mastra } from "@mastra/core/mastra";
import { createDemoAgents } from "../lib/mastra/demo/agents.ts";

type Request = { id: number; store: "libsql" | "pg"; url: string; agent: "refunds"; options: Record<string, unknown> };

const instances = new Map<string, Promise<Mastra>>();

async function mastraFor(store: Request["store"], url: string): Promise<Mastra> {
  const key = `${store}:${url}`;
  let mastra = instances.get(key);
  if (!mastra) {
    mastra = (async () => {
      const storage =
        store === "libsql"
          ? new (await import("@mastra/libsql")).LibSQLStore({ id: "bench-libsql", url })
          : new (await import("@mastra/pg")).PostgresStore({ id: "bench-pg", connectionString: url });
      return new Mastra({
        agents: createDemoAgents({ recordEffect: async (effect) => ({ repeated: false, output: effect.output }) }),
        storage,
        logger: false,
      });
    })();
    instances.set(key, mastra);
  }
  return mastra;
}

process.on("message", async (request: Request) => {
  try {
    const mastra = await mastraFor(request.store, request.url);
    const options = { ...request.options };
    for (const key of ["fromDate", "toDate"]) if (typeof options[key] === "string") options[key] = new Date(options[key] as string);
    const agent = mastra.getAgent(request.agent);
    const started = performance.now();
    const result = await agent.listSuspendedRuns(options);
    const ms = performance.now() - started;
    process.send!({ id: request.id, ms, total: result.total, runs: result.runs.length, rssMb: process.memoryUsage().rss / 1e6 });
  } catch (error) {
    process.send!({
      id: request.id,
      error: error instanceof Error ? `${error.message} ${(error as { cause?: Error }).cause?.message ?? ""}` : String(error),
    });
  }
});
process.send!({ ready: true });
