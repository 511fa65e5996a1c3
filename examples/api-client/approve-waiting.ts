/**
 * A script against the console's JSON API with a typed client: openapi-fetch over the types
 * openapi-typescript made of GET /api/openapi.json (generated/api-types.ts, `npm run api:types`). It signs in,
 * lists the calls waiting in the review queue, and approves the oldest approval among them (or
 * none, with --dry-run). Every path, parameter, body and answer below is checked by TypeScript.
 *
 *   CONSOLE_URL=http://localhost:3000 CONSOLE_EMAIL=rita@example.com CONSOLE_PASSWORD=… \
 *     npx tsx examples/api-client/approve-waiting.ts [--dry-run]
 */
import createClient from "openapi-fetch";
import type { paths } from "./generated/api-types.ts";

const baseUrl = process.env.CONSOLE_URL ?? "http://localhost:3000";
const email = process.env.CONSOLE_EMAIL;
const password = process.env.CONSOLE_PASSWORD;
if (!email || !password) fail("CONSOLE_EMAIL and CONSOLE_PASSWORD must be set: the account the script signs in as");

const client = createClient<paths>({ baseUrl });

// better-auth answers the sign-in with the session cookie; a script keeps it itself.
const signIn = await client.POST("/api/auth/sign-in/email", { body: { email, password } });
const cookie = signIn.response.headers
  .getSetCookie()
  .find((line) => line.includes("session_token="))
  ?.split(";")[0];
if (!signIn.data || !cookie) fail(`sign-in refused (${signIn.response.status})`);
client.use({ onRequest: ({ request }) => (request.headers.set("cookie", cookie), request) });

const queue = await client.GET("/api/queue", { params: { query: { sort: "oldest", perPage: "50" } } });
if (!queue.data) fail(`the queue: ${queue.error?.error.code} ${queue.error?.error.message}`);
const { threadTotal, callTotal, threads } = queue.data.data;
console.log(`${callTotal} calls waiting in ${threadTotal} threads`);

const waiting = threads.flatMap((thread) =>
  thread.runs.flatMap((run) => run.toolCalls.map((call) => ({ run, call, thread: thread.threadKey || "(no thread)" }))),
);
for (const { run, call, thread } of waiting) {
  const state = call.inFlight ? ` (being ${call.inFlight.action}d by ${call.inFlight.reviewer})` : "";
  console.log(`- ${run.agentId} ${call.toolName ?? "?"} run ${run.runId} call ${call.toolCallId} thread ${thread}${state}`);
}

const next = waiting.find(({ call }) => call.requiresApproval && call.toolCallId && !call.inFlight && !call.markedExpired);
if (!next) {
  console.log("nothing to approve");
} else if (process.argv.includes("--dry-run")) {
  console.log(`would approve ${next.call.toolName} of run ${next.run.runId}`);
} else {
  const decided = await client.POST("/api/decisions", {
    body: { action: "approve", runId: next.run.runId, toolCallId: next.call.toolCallId!, agentId: next.run.agentId },
  });
  if (!decided.data) fail(`approving: ${decided.error?.error.code} ${decided.error?.error.message}`);
  const outcome = decided.data.data;
  console.log(`approved ${next.call.toolName} of run ${outcome.runId}: the run is ${outcome.runState}; the agent said: ${outcome.answer}`);
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
