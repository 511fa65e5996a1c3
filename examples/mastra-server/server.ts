/**
 * An example Mastra server: the demo agents and workflows behind Mastra's Hono adapter, adopting the
 * store package (@agent-approvals/mastra-store) the way a team's own server would, on the database
 * the console lists from. It stands for a team's own Mastra deployment; the console in remote mode
 * (MASTRA_SERVER_URL) carries its decisions out through it.
 *
 *   APPROVALS_DATABASE_URL=file:./data/console.db PORT=4111 MASTRA_SERVER_TOKEN=secret npm run mastra-server
 *
 * APPROVALS_DATABASE_URL, not DATABASE_URL: the variable the store's README gives a team's server
 * for the console's database, beside whatever DATABASE_URL means to that app.
 *
 * Mastra's routes are under /api (GET /api/agents, POST /api/agents/:agentId/approve-tool-call, …).
 * With MASTRA_SERVER_TOKEN set, every /api request needs `Authorization: Bearer <token>` (else 401).
 */
import { serve } from "@hono/node-server";
import { Mastra } from "@mastra/core/mastra";
import { MastraServer, type HonoBindings, type HonoVariables } from "@mastra/hono";
import { Hono } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { logger } from "hono/logger";
import { PrismaWorkflowsStorage } from "@agent-approvals/mastra-store";
import { MastraCompositeStore } from "@mastra/core/storage";
import { absoluteDatabaseUrl } from "../../lib/db/database-url.ts";
import { createAgents, createWorkflows } from "../../lib/mastra/agents.ts";
import { createMastraDefaultStore } from "../../lib/store/index.ts";

const databaseUrl = absoluteDatabaseUrl(process.env.APPROVALS_DATABASE_URL || "file:./data/console.db");
const port = Number(process.env.PORT ?? 4111);
const hostname = process.env.HOSTNAME_MASTRA ?? "127.0.0.1";
const token = process.env.MASTRA_SERVER_TOKEN;

const mastra = new Mastra({
  agents: createAgents({ databaseUrl }),
  workflows: createWorkflows({ databaseUrl }),
  storage: new MastraCompositeStore({
    id: "example-mastra-server",
    // What a team keeps: its own store for memory, traces and the rest…
    default: await createMastraDefaultStore(databaseUrl),
    // …and the one change: suspended runs go to the store package, on the console's database.
    domains: { workflows: new PrismaWorkflowsStorage({ databaseUrl }) },
  }),
  logger: false,
});

const app = new Hono<{ Bindings: HonoBindings; Variables: HonoVariables }>();
// One line per request and per answer: what an operator (and the remote-mode tests) can see arrive.
app.use(logger());
app.get("/health", (context) => context.json({ ok: true }));
// Registered before Mastra's routes, so no agent route answers without the token.
if (token) app.use("/api/*", bearerAuth({ token }));
await new MastraServer({ app, mastra }).init();

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(
    `Mastra server on http://${info.address}:${info.port} (${token ? "bearer token required" : "no auth"}), database ${databaseUrl}`,
  );
});

// A test or a terminal stops it with SIGTERM / Ctrl-C: close the listener, then leave (open pools would keep Node alive).
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close();
    process.exit(0);
  });
}
